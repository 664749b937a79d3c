package io.anteroom.gateway.filter;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;

/** Requests that pass without a queue: reads of static assets, by file extension. */
final class Bypass {

  private final Set<String> extensions;

  Bypass(List<String> extensions) {
    this.extensions = Set.copyOf(extensions);
  }

  boolean matches(ServerHttpRequest request) {
    HttpMethod method = request.getMethod();
    if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
      return false;
    }
    String path = request.getPath().pathWithinApplication().value();
    int slash = path.lastIndexOf('/');
    int dot = path.lastIndexOf('.');
    if (dot <= slash + 1 || path.indexOf(';') >= 0) {
      return false;
    }
    return extensions.contains(path.substring(dot + 1).toLowerCase(Locale.ROOT));
  }
}
