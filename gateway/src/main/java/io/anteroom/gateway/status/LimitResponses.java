package io.anteroom.gateway.status;

import io.anteroom.gateway.line.Refusal;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The answer to a request refused a new place by a limit: 429 with Retry-After, as a page ({@code
 * templates/limited.html}) or as JSON {@code {"state":"refused","reason":…,"retryAfterSeconds":…}},
 * never cached.
 */
public final class LimitResponses {

  private final WaitingPage pages;

  public LimitResponses(WaitingPage pages) {
    this.pages = pages;
  }

  public Mono<Void> refused(ServerWebExchange exchange, String room, Refusal refusal) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
    long retryAfterSeconds = refusal.retryAfterSeconds();
    response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    if (WaitingResponses.wantsJson(exchange)) {
      return WaitingResponses.write(
          response,
          MediaType.APPLICATION_JSON,
          "{\"state\":\"refused\",\"reason\":\""
              + refusal.reason().code()
              + "\",\"retryAfterSeconds\":"
              + retryAfterSeconds
              + "}");
    }
    PageText text =
        pages.text(room, exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT_LANGUAGE));
    String page =
        pages.renderLimited(
            room, refusal.reason().code(), refusal.reason().textKey(), retryAfterSeconds, text);
    return WaitingResponses.write(response, MediaType.TEXT_HTML, page);
  }
}
