package io.anteroom.guard;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The paths a guard protects, as the gateway's route predicates name them: {@code /products/{id}}
 * (any name in braces is the item, one per pattern), {@code *} for one segment, and a trailing
 * {@code /**} for anything below (or nothing). A path that matches no pattern is not protected.
 *
 * <p>They are matched against a {@link CanonicalPath}, and never more narrowly than Spring's {@code
 * PathPattern} would route them: names are compared ignoring case (Unicode case, as the {@code
 * String.equalsIgnoreCase} of {@code PathPatternParser.setCaseSensitive(false)} does), a trailing
 * slash matches too, and a {@code *} at the end also matches an empty last segment ({@code
 * /products/} for {@code /products/*}).
 */
final class GuardedPaths {

  /** A path of a protected pattern, and the item its braces hold, or null when it has none. */
  record Match(String item) {}

  private final List<Pattern> patterns;

  GuardedPaths(List<String> patterns) {
    List<Pattern> compiled = new ArrayList<>(patterns.size());
    for (String pattern : patterns) {
      compiled.add(compile(pattern));
    }
    this.patterns = List.copyOf(compiled);
  }

  /** The match of a canonical {@code path}, or null when it is not protected. */
  Match match(String path) {
    for (Pattern pattern : patterns) {
      Matcher matcher = pattern.matcher(path);
      if (matcher.matches()) {
        return new Match(matcher.groupCount() > 0 ? matcher.group(1) : null);
      }
    }
    return null;
  }

  private static Pattern compile(String pattern) {
    if (pattern == null || !pattern.startsWith("/")) {
      throw new IllegalArgumentException("a guarded path starts with '/': " + pattern);
    }
    String body = pattern;
    boolean below = body.endsWith("/**");
    if (below) {
      body = body.substring(0, body.length() - 3);
    }
    StringBuilder regex = new StringBuilder();
    int items = 0;
    String[] segments = body.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i];
      if (segment.isEmpty()) {
        continue;
      }
      regex.append('/');
      if (segment.startsWith("{") && segment.endsWith("}")) {
        regex.append("([^/]+)");
        items++;
      } else if (segment.equals("*")) {
        regex.append(i == segments.length - 1 && !below ? "[^/]*" : "[^/]+");
      } else if (segment.contains("*") || segment.contains("{")) {
        throw new IllegalArgumentException(
            "a guarded path's segment is a name, {item}, or *, was '"
                + segment
                + "' in "
                + pattern);
      } else {
        regex.append(Pattern.quote(segment));
      }
    }
    if (items > 1) {
      throw new IllegalArgumentException("a guarded path names one item at most: " + pattern);
    }
    regex.append(below ? "(?:/.*)?" : "/?");
    return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
  }
}
