package io.anteroom.gateway.path;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Runs before any route is chosen and answers 400 to a request whose path is not in its normal form
 * ({@link PathForms}) or is a case or trailing-slash variant of a path a waiting room protects
 * ({@link ProtectedPaths}), counting each as {@code anteroom.gateway.paths.rejected{reason}}. Every
 * request that passes is routed, queued and forwarded on the same path the origin receives.
 */
final class PathGuard implements WebFilter, Ordered {

  private static final byte[] BODY =
      "{\"error\":\"ambiguous-path\"}".getBytes(StandardCharsets.UTF_8);

  private final Mono<ProtectedPaths> protectedPaths;
  private final Map<PathForms.Problem, Counter> rejected = new EnumMap<>(PathForms.Problem.class);

  /**
   * @param protectedPaths the protected paths, computed once from the route definitions
   */
  PathGuard(Mono<ProtectedPaths> protectedPaths, MeterRegistry meters) {
    this.protectedPaths = protectedPaths;
    for (PathForms.Problem problem : PathForms.Problem.values()) {
      rejected.put(
          problem, meters.counter("anteroom.gateway.paths.rejected", "reason", problem.tag));
    }
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    String rawPath = exchange.getRequest().getURI().getRawPath();
    PathForms.Problem problem = PathForms.problem(rawPath);
    if (problem != null) {
      return refuse(exchange, problem);
    }
    return protectedPaths.flatMap(
        paths ->
            paths.isVariant(rawPath)
                ? refuse(exchange, PathForms.Problem.PROTECTED_VARIANT)
                : chain.filter(exchange));
  }

  private Mono<Void> refuse(ServerWebExchange exchange, PathForms.Problem problem) {
    rejected.get(problem).increment();
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.BAD_REQUEST);
    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    response.getHeaders().setCacheControl(CacheControl.noStore());
    DataBuffer body = response.bufferFactory().wrap(BODY);
    return response.writeWith(Mono.just(body));
  }
}
