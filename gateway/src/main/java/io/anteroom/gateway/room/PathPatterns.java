package io.anteroom.gateway.room;

import org.springframework.http.server.PathContainer;

/** Where a template variable sits in a route's Path pattern, counted in request path segments. */
final class PathPatterns {

  private PathPatterns() {}

  /**
   * The index of the segment of {@code pattern} (such as {@code /products/{id}/**}) that holds the
   * variable {@code name}, or -1 when the pattern cannot tell: the variable is missing, captures
   * the rest of the path ({@code {*name}}), or follows a segment that may stand for several.
   */
  static int segmentOf(String pattern, String name) {
    String[] parts = (pattern.startsWith("/") ? pattern.substring(1) : pattern).split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.contains("{" + name + "}") || part.contains("{" + name + ":")) {
        return i;
      }
      if (part.equals("**") || part.contains("{*")) {
        return -1;
      }
    }
    return -1;
  }

  /** The number of segments of {@code path}. */
  static int segments(PathContainer path) {
    int segments = 0;
    for (PathContainer.Element element : path.elements()) {
      if (element instanceof PathContainer.PathSegment) {
        segments++;
      }
    }
    return segments;
  }
}
