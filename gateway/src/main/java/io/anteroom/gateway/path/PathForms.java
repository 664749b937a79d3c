package io.anteroom.gateway.path;

import java.util.Locale;

/**
 * Tells a request path in its one normal form from a path that servers may read in different ways.
 * Route predicates match the decoded segments of the raw path while the origin receives the raw
 * path and may collapse {@code //}, resolve {@code ..}, decode {@code %2F} or {@code %252F}, or
 * strip {@code ;params} by its own rules; a path with any of those could be judged unprotected here
 * and protected there. Such a path is refused rather than rewritten, so the origin always receives
 * exactly the path the gateway decided on.
 */
final class PathForms {

  /** Why a path is not in its normal form; the tag of {@code anteroom.gateway.paths.rejected}. */
  enum Problem {
    /** Not starting with {@code /}, or a control, space, non-ASCII or backslash character. */
    CHARACTER,
    /** An empty segment: {@code //}. */
    EMPTY_SEGMENT,
    /** A {@code .} or {@code ..} segment. */
    DOT_SEGMENT,
    /** A {@code ;} path parameter, raw or encoded. */
    PATH_PARAMETER,
    /**
     * A {@code %} escape that is malformed, of an encoded {@code /}, {@code \}, {@code %} (double
     * encoding) or control character, or of a character that never needs encoding.
     */
    ENCODING,
    /** A case or trailing-slash variant of a path a waiting room protects. */
    PROTECTED_VARIANT;

    final String tag = name().toLowerCase(Locale.ROOT);
  }

  private PathForms() {}

  /** The first problem of {@code rawPath} (still percent-encoded), or null when it is normal. */
  static Problem problem(String rawPath) {
    if (rawPath == null || rawPath.isEmpty() || rawPath.charAt(0) != '/') {
      return Problem.CHARACTER;
    }
    int segmentStart = 1;
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c <= 0x20 || c >= 0x7f || c == '\\') {
        return Problem.CHARACTER;
      }
      if (c == ';') {
        return Problem.PATH_PARAMETER;
      }
      if (c == '%') {
        Problem escape = escape(rawPath, i);
        if (escape != null) {
          return escape;
        }
        i += 2;
      } else if (c == '/' && i > 0) {
        Problem segment = segment(rawPath, segmentStart, i);
        if (segment != null) {
          return segment;
        }
        segmentStart = i + 1;
      }
    }
    // The last segment may be empty: a trailing slash is a path of its own, judged by the routes.
    return isDots(rawPath, segmentStart, rawPath.length()) ? Problem.DOT_SEGMENT : null;
  }

  private static Problem segment(String path, int start, int end) {
    if (start == end) {
      return Problem.EMPTY_SEGMENT;
    }
    return isDots(path, start, end) ? Problem.DOT_SEGMENT : null;
  }

  /** Whether the segment from {@code start} to {@code end} is {@code .} or {@code ..}. */
  private static boolean isDots(String path, int start, int end) {
    int length = end - start;
    return (length == 1 || length == 2) && path.charAt(start) == '.' && path.charAt(end - 1) == '.';
  }

  private static Problem escape(String path, int at) {
    if (at + 2 >= path.length()) {
      return Problem.ENCODING;
    }
    int high = Character.digit(path.charAt(at + 1), 16);
    int low = Character.digit(path.charAt(at + 2), 16);
    if (high < 0 || low < 0) {
      return Problem.ENCODING;
    }
    int decoded = high * 16 + low;
    if (decoded == ';') {
      return Problem.PATH_PARAMETER;
    }
    if (decoded < 0x20 || decoded == 0x7f || decoded == '/' || decoded == '\\' || decoded == '%') {
      return Problem.ENCODING;
    }
    return unreserved(decoded) ? Problem.ENCODING : null;
  }

  /**
   * RFC 3986 unreserved characters, which a normal path never encodes (this covers {@code %2E}).
   */
  private static boolean unreserved(int c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}
