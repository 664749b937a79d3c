package io.anteroom.gateway.status;

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

  /** Why a place was refused. */
  public enum Reason {
    /** The client address asked for more new places this minute than the room allows. */
    PLACES_PER_IP("too-many-new-places-from-address", "limited.placesPerIp"),
    /** The visitor already waits in as many of the room's lines as it allows. */
    QUEUES_PER_IDENTITY("too-many-queues-per-identity", "limited.queuesPerIdentity");

    private final String code;
    private final String textKey;

    Reason(String code, String textKey) {
      this.code = code;
      this.textKey = textKey;
    }

    public String code() {
      return code;
    }
  }

  private final WaitingPage pages;

  public LimitResponses(WaitingPage pages) {
    this.pages = pages;
  }

  public Mono<Void> refused(
      ServerWebExchange exchange, String room, Reason reason, long retryAfterSeconds) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
    response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    if (WaitingResponses.wantsJson(exchange)) {
      return WaitingResponses.write(
          response,
          MediaType.APPLICATION_JSON,
          "{\"state\":\"refused\",\"reason\":\""
              + reason.code
              + "\",\"retryAfterSeconds\":"
              + retryAfterSeconds
              + "}");
    }
    PageText text =
        pages.text(room, exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT_LANGUAGE));
    String page = pages.renderLimited(room, reason.code, reason.textKey, retryAfterSeconds, text);
    return WaitingResponses.write(response, MediaType.TEXT_HTML, page);
  }
}
