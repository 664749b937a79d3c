package io.anteroom.gateway.filter;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Removes the {@value Bypass#SECRET_HEADER} header on every route, including those without a
 * waiting room, so a monitoring secret never reaches an origin. Runs after the waiting room filters
 * have read it.
 */
public final class BypassSecretStripper implements GlobalFilter, Ordered {

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 200;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    if (!exchange.getRequest().getHeaders().containsHeader(Bypass.SECRET_HEADER)) {
      return chain.filter(exchange);
    }
    return chain.filter(
        exchange.mutate().request(r -> r.headers(h -> h.remove(Bypass.SECRET_HEADER))).build());
  }
}
