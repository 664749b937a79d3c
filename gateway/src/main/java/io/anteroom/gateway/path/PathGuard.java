package io.anteroom.gateway.path;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.IntSupplier;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.RequestPath;
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
 * Requests to the management port (actuator, admin API) are left alone: no origin is behind it, and
 * the admin API takes encoded item ids of its own.
 */
final class PathGuard implements WebFilter, Ordered {

  private static final byte[] BODY =
      "{\"error\":\"ambiguous-path\"}".getBytes(StandardCharsets.UTF_8);

  private final Mono<ProtectedPaths> protectedPaths;
  private final IntSupplier visitorPort;
  private final Map<PathForms.Problem, Counter> rejected = new EnumMap<>(PathForms.Problem.class);

  /** {@link #protectedPaths} once computed, read without subscribing on every request. */
  private volatile ProtectedPaths resolved;

  /**
   * @param protectedPaths the protected paths, computed once from the route definitions
   * @param visitorPort the port visitors reach the gateway on, or -1 while unknown (then every
   *     request is checked)
   */
  PathGuard(Mono<ProtectedPaths> protectedPaths, IntSupplier visitorPort, MeterRegistry meters) {
    this.protectedPaths = protectedPaths;
    this.visitorPort = visitorPort;
    for (PathForms.Problem problem : PathForms.Problem.values()) {
      rejected.put(
          problem, meters.counter("anteroom.gateway.paths.rejected", "reason", problem.tag));
    }
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 1;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!onVisitorPort(exchange)) {
      return chain.filter(exchange);
    }
    // The request's parsed path: its value is the raw path, and its segments are parsed once for
    // this check and for route matching alike.
    RequestPath path = exchange.getRequest().getPath();
    PathForms.Problem problem = PathForms.problem(path.value());
    if (problem != null) {
      return refuse(exchange, problem);
    }
    ProtectedPaths paths = resolved;
    if (paths != null) {
      return decide(exchange, chain, path, paths);
    }
    return protectedPaths.flatMap(
        computed -> {
          resolved = computed;
          return decide(exchange, chain, path, computed);
        });
  }

  private Mono<Void> decide(
      ServerWebExchange exchange, WebFilterChain chain, RequestPath path, ProtectedPaths paths) {
    return paths.isVariant(path)
        ? refuse(exchange, PathForms.Problem.PROTECTED_VARIANT)
        : chain.filter(exchange);
  }

  private boolean onVisitorPort(ServerWebExchange exchange) {
    int port = visitorPort.getAsInt();
    InetSocketAddress local = exchange.getRequest().getLocalAddress();
    return port < 0 || local == null || local.getPort() == port;
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
