package io.anteroom.gateway.edge;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers {@code 431} to a request with more header lines than an origin is likely to take (Tomcat
 * takes 100 by default and drops the connection beyond), counted as {@value #REFUSED}, before
 * anything else sees it. Forwarded, such a request would come back as the origin's failure: a
 * dropped connection that looks like an origin in trouble to the auto-pilot and to re-entry, caused
 * by the client alone. Header sizes are the server's own limit ({@code
 * server.max-http-request-header-size}).
 */
final class HeaderLimit implements WebFilter, Ordered {

  static final String REFUSED = "anteroom.gateway.headers.refused";

  private static final byte[] BODY =
      "{\"error\":\"too-many-headers\"}".getBytes(StandardCharsets.UTF_8);

  private final int most;
  private final Counter refused;

  /**
   * @param most the most header lines a request may carry
   */
  HeaderLimit(int most, MeterRegistry meters) {
    this.most = most;
    this.refused =
        Counter.builder(REFUSED)
            .description("Requests refused for carrying too many header lines")
            .register(meters);
  }

  /** Before the path guard and every route. */
  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (lines(exchange.getRequest().getHeaders()) <= most) {
      return chain.filter(exchange);
    }
    refused.increment();
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE);
    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    response.getHeaders().setConnection("close");
    return response.writeWith(Mono.just(response.bufferFactory().wrap(BODY)));
  }

  /** Header lines, a name sent several times counted each time, as servers count them. */
  private static int lines(HttpHeaders headers) {
    int lines = 0;
    for (Map.Entry<String, List<String>> header : headers.headerSet()) {
      lines += header.getValue().size();
    }
    return lines;
  }
}
