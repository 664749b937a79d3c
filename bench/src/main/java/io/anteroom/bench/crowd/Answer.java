package io.anteroom.bench.crowd;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one join was answered, read the way a client would: the JSON body's state and position, and
 * the ticket from {@code Set-Cookie}, whose payload (base64url JSON, read without checking the
 * signature) names the visitor in {@code sub}.
 *
 * @param status the HTTP status; 0 without an answer
 * @param position the place in line the body says; 0 when not waiting
 * @param ticket the ticket cookie's value, or null
 * @param visitor the ticket's visitor id, or null
 */
record Answer(Kind kind, int status, long position, String ticket, String visitor) {

  /**
   * How a request ended; only {@link #WAITING} (2xx, waiting, a position and a ticket naming a
   * visitor) is a success for a new visitor. {@link #OTHER_2XX} is let in at once, or a waiting
   * answer without a ticket.
   */
  enum Kind {
    WAITING,
    OTHER_2XX,
    NON_2XX,
    SOCKET_ERROR,
    TIMEOUT
  }

  /** The ticket cookie of room {@code shop} (one cookie per room, see AnteroomCookies). */
  static final String TICKET_COOKIE = "anteroom_ticket_shop";

  static final Pattern POSITION = Pattern.compile("\"position\":(\\d+)");
  static final Pattern WAITING_COUNT = Pattern.compile("\"waiting\":(\\d+)");
  private static final Pattern STATE = Pattern.compile("\"state\":\"([a-z-]+)\"");
  private static final Pattern SUBJECT = Pattern.compile("\"sub\":\"([A-Za-z0-9_-]+)\"");

  static Answer of(HttpResponse<String> response) {
    return of(response.statusCode(), response.body(), response.headers().allValues("set-cookie"));
  }

  static Answer of(int status, String body, List<String> setCookies) {
    if (status < 200 || status > 299) {
      return failed(Kind.NON_2XX, status);
    }
    String ticket =
        setCookies.stream()
            .filter(c -> c.startsWith(TICKET_COOKIE + "="))
            .map(c -> c.substring(TICKET_COOKIE.length() + 1).split(";", 2)[0])
            .findFirst()
            .orElse(null);
    String visitor = ticket == null ? null : visitor(ticket);
    long position = number(POSITION, body);
    boolean waiting = "waiting".equals(state(body)) && position > 0 && visitor != null;
    return new Answer(waiting ? Kind.WAITING : Kind.OTHER_2XX, status, position, ticket, visitor);
  }

  static Answer failed(Kind kind, int status) {
    return new Answer(kind, status, 0, null, null);
  }

  /** The {@code state} of a JSON status body, or null. */
  static String state(String body) {
    Matcher m = STATE.matcher(body);
    return m.find() ? m.group(1) : null;
  }

  /** A whole-number field of a JSON status body, or -1. */
  static long number(Pattern field, String body) {
    Matcher m = field.matcher(body);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The {@code sub} claim of a compact JWS, or null when it has none. */
  static String visitor(String jws) {
    String[] parts = jws.split("\\.");
    try {
      Matcher m =
          SUBJECT.matcher(
              new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
      return parts.length == 3 && m.find() ? m.group(1) : null;
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException notAToken) {
      return null;
    }
  }
}
