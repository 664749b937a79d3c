package io.anteroom.gateway.path;

import java.util.List;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The {@code Path} patterns of the routes that have a waiting room, to recognise a request that
 * names one of them in another letter case or with or without a trailing slash. Such a request does
 * not match the protected route here (route matching is case- and slash-exact) and would fall
 * through to another route, while an origin that ignores case or a trailing slash would serve the
 * protected page.
 */
final class ProtectedPaths {

  private final List<PathPattern> exact;
  private final List<PathPattern> loose;

  /**
   * @param patterns the Path predicate patterns of every route with a waiting room
   */
  ProtectedPaths(List<String> patterns) {
    PathPatternParser looseParser = new PathPatternParser();
    looseParser.setCaseSensitive(false);
    this.exact = patterns.stream().map(PathPatternParser.defaultInstance::parse).toList();
    this.loose = patterns.stream().map(looseParser::parse).toList();
  }

  /** Whether {@code rawPath} is a variant of a protected path without matching one exactly. */
  boolean isVariant(String rawPath) {
    return isVariant(PathContainer.parsePath(rawPath));
  }

  /**
   * Whether {@code path} is a variant of a protected path without matching one exactly; takes the
   * request's own parsed path, so only a path no route protects is parsed again (with or without
   * its trailing slash).
   */
  boolean isVariant(PathContainer path) {
    String rawPath = path.value();
    if (matches(exact, path)) {
      return false;
    }
    if (matches(loose, path)) {
      return true;
    }
    String other =
        rawPath.endsWith("/") && rawPath.length() > 1
            ? rawPath.substring(0, rawPath.length() - 1)
            : rawPath + "/";
    return matches(loose, PathContainer.parsePath(other));
  }

  private static boolean matches(List<PathPattern> patterns, PathContainer path) {
    for (PathPattern pattern : patterns) {
      if (pattern.matches(path)) {
        return true;
      }
    }
    return false;
  }
}
