package io.anteroom.gateway.admin;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers 404 on the management port for every path outside the actuator and the admin page and
 * API. The management context sees the handler mappings of the main context too (Spring looks them
 * up including ancestors), which would serve visitor endpoints such as {@code /_anteroom/status} on
 * this port as well.
 */
final class ManagementPortGuard implements WebFilter, Ordered {

  private final List<String> prefixes;

  /**
   * @param prefixes path prefixes that stay served, such as {@code /actuator} and {@code /admin}
   */
  ManagementPortGuard(List<String> prefixes) {
    this.prefixes = List.copyOf(prefixes);
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    String path = exchange.getRequest().getPath().pathWithinApplication().value();
    if (prefixes.stream().anyMatch(prefix -> served(path, prefix))) {
      return chain.filter(exchange);
    }
    exchange.getResponse().setStatusCode(HttpStatus.NOT_FOUND);
    return exchange.getResponse().setComplete();
  }

  private static boolean served(String path, String prefix) {
    return path.equals(prefix) || path.startsWith(prefix + "/");
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
