package io.anteroom.gateway.origin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeoutException;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Answers a request the origin did not answer as a proxy should, never with a {@code 500}: {@code
 * 502} when the origin could not be reached or dropped the connection (refused, reset, closed
 * before the answer), {@code 504} when it did not answer in time. Any other error goes on to the
 * framework's handler; an answer already begun is left as it is.
 */
public final class OriginFailures implements WebExceptionHandler, Ordered {

  private static final byte[] BAD_GATEWAY =
      "{\"error\":\"origin-unreachable\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] GATEWAY_TIMEOUT =
      "{\"error\":\"origin-timeout\"}".getBytes(StandardCharsets.UTF_8);

  /** Before Spring Boot's error handler ({@code -1}). */
  @Override
  public int getOrder() {
    return -2;
  }

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
    ServerHttpResponse response = exchange.getResponse();
    HttpStatus status = statusOf(error);
    if (status == null || response.isCommitted()) {
      return Mono.error(error);
    }
    response.setStatusCode(status);
    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    byte[] body = status == HttpStatus.GATEWAY_TIMEOUT ? GATEWAY_TIMEOUT : BAD_GATEWAY;
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }

  /** The answer to {@code error}, or null when it is not the origin's failure. */
  static HttpStatus statusOf(Throwable error) {
    return Causes.first(
        error,
        cause -> {
          if (cause instanceof TimeoutException
              || cause instanceof io.netty.handler.timeout.TimeoutException) {
            return HttpStatus.GATEWAY_TIMEOUT;
          }
          // Refused, reset or closed: ConnectException and SocketException are IOExceptions too.
          return cause instanceof PrematureCloseException || cause instanceof IOException
              ? HttpStatus.BAD_GATEWAY
              : null;
        });
  }
}
