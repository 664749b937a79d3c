package io.anteroom.gateway.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.CacheControl;
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
    PLACES_PER_IP(
        "too-many-new-places-from-address",
        "Too many places in line were asked for from your network in the last minute."),
    /** The visitor already waits in as many of the room's lines as it allows. */
    QUEUES_PER_IDENTITY(
        "too-many-queues-per-identity",
        "You are already waiting in as many lines here as one person may. Finish or leave one"
            + " of them first.");

    private final String code;
    private final String message;

    Reason(String code, String message) {
      this.code = code;
      this.message = message;
    }

    public String code() {
      return code;
    }
  }

  private final String template = read("/templates/limited.html");

  public Mono<Void> refused(
      ServerWebExchange exchange, String room, Reason reason, long retryAfterSeconds) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
    response.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
    if (WaitingResponses.wantsJson(exchange)) {
      return write(
          response,
          MediaType.APPLICATION_JSON,
          "{\"state\":\"refused\",\"reason\":\""
              + reason.code
              + "\",\"retryAfterSeconds\":"
              + retryAfterSeconds
              + "}");
    }
    String page =
        template
            .replace("{{room}}", WaitingPage.escape(room))
            .replace("{{reason}}", reason.code)
            .replace("{{message}}", WaitingPage.escape(reason.message))
            .replace("{{retryAfterSeconds}}", Long.toString(retryAfterSeconds));
    return write(response, MediaType.TEXT_HTML, page);
  }

  private static Mono<Void> write(ServerHttpResponse response, MediaType type, String body) {
    HttpHeaders headers = response.getHeaders();
    headers.setContentType(new MediaType(type, StandardCharsets.UTF_8));
    headers.setCacheControl(CacheControl.noStore());
    DataBuffer buffer = response.bufferFactory().wrap(body.getBytes(StandardCharsets.UTF_8));
    return response.writeWith(Mono.just(buffer));
  }

  private static String read(String path) {
    try (InputStream in = LimitResponses.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing template " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
