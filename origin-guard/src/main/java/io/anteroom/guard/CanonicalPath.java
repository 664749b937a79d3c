package io.anteroom.guard;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A request path as Spring routes it, which is the path the guard matches: the raw path (still
 * percent-encoded) read segment by segment the way Spring's {@code PathContainer} reads it for
 * {@code PathPattern} matching, in Spring MVC ({@code ServletRequestPathUtils} parses {@code
 * getRequestURI()}) and WebFlux alike, so a spelling the guard would not protect is not one Spring
 * routes to a protected handler:
 *
 * <ul>
 *   <li>each segment loses its path parameters, from its first raw {@code ;} on ({@code
 *       /products;a=b/1} is {@code /products/1}; an encoded {@code %3B} stays a character);
 *   <li>then its percent escapes are decoded, once, as UTF-8 ({@code /%70roducts/1} is {@code
 *       /products/1});
 *   <li>empty segments are dropped, as {@code UrlPathHelper} collapses {@code //}: a {@code {id}}
 *       or a {@code *} between slashes never matches an empty segment, so this only makes the guard
 *       protect more; a trailing slash is kept.
 * </ul>
 *
 * <p>A path that servers and Spring's own configurations read differently has no canonical form,
 * and is refused whatever it carries (Spring Security's {@code StrictHttpFirewall} refuses the
 * same): a {@code .} or {@code ..} segment, raw or encoded ({@code PathPattern} matching keeps
 * them, {@code UrlPathHelper} and servlet containers resolve them, so {@code /products/1/..} is
 * product 1's page to one and {@code /products} to the other); an encoded {@code /}, {@code \} or
 * {@code %} (double encoding), which a second decoder turns into structure; a malformed escape or
 * one that is not UTF-8; a control or line-separator character, raw or encoded; a raw backslash,
 * space or non-ASCII character; a path not starting with {@code /}.
 *
 * @param value the canonical path; null when there is none
 * @param problem why there is none; null when there is one
 */
record CanonicalPath(String value, Problem problem) {

  /** Why a raw path has no canonical form. */
  enum Problem {
    /**
     * No path, one not starting with {@code /}, or a raw control, space, {@code \} or non-ASCII.
     */
    CHARACTER,
    /** A malformed or non-UTF-8 escape, or one of {@code /}, {@code \}, {@code %} or a control. */
    ENCODING,
    /** A {@code .} or {@code ..} segment, raw or encoded. */
    DOT_SEGMENT;

    private final String tag = name().toLowerCase(Locale.ROOT);

    /** The reason in lower case, e.g. {@code dot_segment}, for a response body. */
    String tag() {
      return tag;
    }
  }

  /** The canonical form of {@code rawPath}, the path without the query, still percent-encoded. */
  static CanonicalPath of(String rawPath) {
    if (rawPath == null || (!rawPath.isEmpty() && rawPath.charAt(0) != '/')) {
      return refused(Problem.CHARACTER);
    }
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c <= ' ' || c >= 0x7f || c == '\\') {
        return refused(Problem.CHARACTER);
      }
    }
    List<String> segments = new ArrayList<>();
    boolean trailingSlash = false;
    String segmentsAfterRoot = rawPath.isEmpty() ? "" : rawPath.substring(1);
    for (String raw : segmentsAfterRoot.split("/", -1)) {
      int parameters = raw.indexOf(';');
      String value = decode(parameters < 0 ? raw : raw.substring(0, parameters));
      if (value == null) {
        return refused(Problem.ENCODING);
      }
      if (value.equals(".") || value.equals("..")) {
        return refused(Problem.DOT_SEGMENT);
      }
      trailingSlash = value.isEmpty();
      if (!trailingSlash) {
        segments.add(value);
      }
    }
    String path = "/" + String.join("/", segments);
    return new CanonicalPath(trailingSlash && !segments.isEmpty() ? path + "/" : path, null);
  }

  private static CanonicalPath refused(Problem problem) {
    return new CanonicalPath(null, problem);
  }

  /** {@code segment} with its escapes decoded, or null when one is not acceptable. */
  private static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    byte[] bytes = new byte[segment.length()];
    int length = 0;
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c == '%') {
        // Only ASCII is left here, so Character.digit reads no other script's digits.
        int high = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
        int low = high < 0 ? -1 : Character.digit(segment.charAt(i + 2), 16);
        if (low < 0) {
          return null;
        }
        c = (char) (high * 16 + low);
        if (c == '/' || c == '\\' || c == '%') {
          return null;
        }
        i += 2;
      }
      bytes[length++] = (byte) c;
    }
    String decoded = utf8(bytes, length);
    return decoded == null || hasControl(decoded) ? null : decoded;
  }

  /** The UTF-8 text of the first {@code length} bytes, or null when they are not UTF-8. */
  private static String utf8(byte[] bytes, int length) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return decoder.decode(ByteBuffer.wrap(bytes, 0, length)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** C0 and C1 controls, DEL, and the line and paragraph separators. */
  private static boolean hasControl(String decoded) {
    for (int i = 0; i < decoded.length(); i++) {
      char c = decoded.charAt(i);
      if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        return true;
      }
    }
    return false;
  }
}
