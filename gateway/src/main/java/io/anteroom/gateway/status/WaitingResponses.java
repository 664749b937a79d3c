package io.anteroom.gateway.status;

import io.anteroom.gateway.line.WaitingView;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Writes what a visitor who cannot enter yet gets: the waiting page for browsers, the JSON status
 * for apps ({@code Accept: application/json}), never cached.
 */
public final class WaitingResponses {

  /**
   * Seconds a visitor is told to wait (Retry-After) before trying again while the line cannot be
   * reached: short, since the line is usually back within seconds.
   */
  public static final long LINE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

  private final WaitingPage page;
  private final HttpStatus waitingStatus;
  private final BiFunction<String, String, String> messages;

  /**
   * @param waitingStatus status of the waiting page and its JSON (200, 202, 429 or 503)
   * @param messages each room's operator message in a language (room, language), or null
   */
  public WaitingResponses(
      WaitingPage page, int waitingStatus, BiFunction<String, String, String> messages) {
    this.page = page;
    this.waitingStatus = HttpStatus.valueOf(waitingStatus);
    this.messages = messages;
  }

  /** The waiting page or JSON for a visitor in line. */
  public Mono<Void> waiting(ServerWebExchange exchange, String room, WaitingView view) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(waitingStatus);
    if (waitingStatus.value() == 429 || waitingStatus.value() == 503) {
      response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(view.pollAfterSeconds()));
    }
    PageText text = text(exchange, room);
    String message = messages.apply(room, text.language());
    if (wantsJson(exchange)) {
      return write(response, MediaType.APPLICATION_JSON, withMessage(view.toJson(), message));
    }
    return write(response, MediaType.TEXT_HTML, page.render(room, view, message, text));
  }

  /**
   * The closed page, or the JSON {@code closed} state: 503 without Retry-After (there is nothing to
   * come back for until an operator opens again), never cached.
   */
  public Mono<Void> closed(ServerWebExchange exchange, String room) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
    PageText text = text(exchange, room);
    String message = messages.apply(room, text.language());
    if (wantsJson(exchange)) {
      return write(
          response, MediaType.APPLICATION_JSON, withMessage(WaitingView.CLOSED.toJson(), message));
    }
    return write(response, MediaType.TEXT_HTML, page.renderClosed(room, message, text));
  }

  /**
   * The proof-of-work page, which solves the challenge and loads the URL again with the answer; or
   * for apps the JSON {@code challenge} state with the challenge and its difficulty (the answer
   * goes in the {@code Anteroom-Proof} header as {@code <challenge>.<counter>}). Same status as the
   * waiting page.
   */
  public Mono<Void> challenge(
      ServerWebExchange exchange, String room, String challenge, int difficulty) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(waitingStatus);
    if (waitingStatus.value() == 429 || waitingStatus.value() == 503) {
      response.getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
    }
    if (wantsJson(exchange)) {
      String body =
          "{\"state\":\"challenge\",\"challenge\":\""
              + challenge
              + "\",\"difficulty\":"
              + difficulty
              + "}";
      return write(response, MediaType.APPLICATION_JSON, body);
    }
    PageText text = text(exchange, room);
    return write(
        response,
        MediaType.TEXT_HTML,
        page.renderChallenge(room, challenge, difficulty, message(room, text), text));
  }

  /** A JSON status (the status endpoint always answers JSON). */
  public Mono<Void> json(ServerWebExchange exchange, HttpStatus status, WaitingView view) {
    exchange.getResponse().setStatusCode(status);
    return write(exchange.getResponse(), MediaType.APPLICATION_JSON, view.toJson());
  }

  /**
   * 503 with Retry-After for a newcomer whose line cannot be reached (Redis down or slow) in a room
   * that fails closed: the page saying so for browsers, which loads the URL again after {@code
   * retryAfterSeconds}; for apps the JSON {@code unavailable} state with the reason {@code
   * queue-unavailable}. Never cached.
   */
  public Mono<Void> lineUnavailable(
      ServerWebExchange exchange, String room, long retryAfterSeconds) {
    if (wantsJson(exchange)) {
      return unavailable(exchange, retryAfterSeconds, "queue-unavailable");
    }
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
    response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    PageText text = text(exchange, room);
    return write(
        response,
        MediaType.TEXT_HTML,
        page.renderUnavailable(room, retryAfterSeconds, message(room, text), text));
  }

  /** 503 with Retry-After and a JSON reason, for requests that cannot be served now. */
  public Mono<Void> unavailable(ServerWebExchange exchange, long retryAfterSeconds, String reason) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
    response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    String body =
        "{\"state\":\"unavailable\",\"reason\":\""
            + reason
            + "\",\"retryAfterSeconds\":"
            + retryAfterSeconds
            + "}";
    return write(response, MediaType.APPLICATION_JSON, body);
  }

  /**
   * A JSON status with the room's operator message added as {@code "message"} when it has one. The
   * rest of the contract stays as it is, the same in every language.
   */
  public static String withMessage(String json, String message) {
    if (message == null || message.isEmpty() || !json.endsWith("}")) {
      return json;
    }
    return json.substring(0, json.length() - 1) + ",\"message\":" + jsonString(message) + "}";
  }

  private static String jsonString(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '<' -> out.append("\\u003c");
        case '>' -> out.append("\\u003e");
        case '&' -> out.append("\\u0026");
        default -> {
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private String message(String room, PageText text) {
    return messages.apply(room, text.language());
  }

  private PageText text(ServerWebExchange exchange, String room) {
    return page.text(
        room, exchange.getRequest().getHeaders().getFirst(HttpHeaders.ACCEPT_LANGUAGE));
  }

  /** Whether the client asked for JSON rather than a page. */
  public static boolean wantsJson(ServerWebExchange exchange) {
    List<MediaType> accept;
    try {
      accept = exchange.getRequest().getHeaders().getAccept();
    } catch (InvalidMediaTypeException e) {
      return false;
    }
    boolean json = false;
    for (MediaType type : accept) {
      if (type.isCompatibleWith(MediaType.TEXT_HTML) && !type.isWildcardType()) {
        return false;
      }
      json |= MediaType.APPLICATION_JSON.isCompatibleWith(type) && !type.isWildcardType();
    }
    return json;
  }

  /** Writes {@code body} as {@code type} in UTF-8, never cached. */
  static Mono<Void> write(ServerHttpResponse response, MediaType type, String body) {
    HttpHeaders headers = response.getHeaders();
    headers.setContentType(new MediaType(type, StandardCharsets.UTF_8));
    headers.setCacheControl(CacheControl.noStore());
    DataBuffer buffer = response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8));
    return response.writeWith(Mono.just(buffer));
  }
}
