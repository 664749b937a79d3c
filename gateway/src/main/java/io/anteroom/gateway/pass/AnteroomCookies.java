package io.anteroom.gateway.pass;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The one owner of Anteroom's cookie names and attributes: one pass cookie and one ticket cookie
 * per room, HttpOnly, SameSite=Lax, Path=/, Secure unless turned off for a plain-http demo. The
 * waiting page's script sets one more, the proof-of-work answer, which the gateway removes once
 * read. A request carrying several cookies of one name (set for other paths or domains, or injected
 * by a sibling subdomain) has none of them read: which one a server takes first differs between
 * servers, so none is trusted.
 */
public final class AnteroomCookies {

  /** Every Anteroom cookie name starts with this; clients' copies never reach the origin. */
  public static final String PREFIX = "anteroom_";

  private static final String PASS = PREFIX + "pass_";
  private static final String TICKET = PREFIX + "ticket_";
  private static final String PROOF = PREFIX + "proof_";

  /** Most rooms whose cookie names are kept; rooms are configured, so a handful. */
  private static final int MAX_NAMED_ROOMS = 64;

  /** One room's cookie names, built once rather than on every request. */
  private record Names(String pass, String ticket, String proof) {
    Names(String room) {
      this(PASS + room, TICKET + room, PROOF + room);
    }
  }

  private final boolean secure;
  private final Map<String, Names> names = new ConcurrentHashMap<>();

  public AnteroomCookies(boolean secure) {
    this.secure = secure;
  }

  /** The pass token the request carries for {@code room}, or null when none or several. */
  public String pass(ServerHttpRequest request, String room) {
    return value(request, names(room).pass());
  }

  /** The ticket token the request carries for {@code room}, or null when none or several. */
  public String ticket(ServerHttpRequest request, String room) {
    return value(request, names(room).ticket());
  }

  /**
   * The proof-of-work answer the request carries for {@code room}, or null when none or several.
   */
  public String proof(ServerHttpRequest request, String room) {
    return value(request, names(room).proof());
  }

  /** The name of the cookie the waiting page puts the proof-of-work answer of {@code room} in. */
  public static String proofName(String room) {
    return PROOF + room;
  }

  /** Removes the proof-of-work answer of {@code room}. */
  public ResponseCookie clearProof(String room) {
    return cookie(PROOF + room, "", Duration.ZERO);
  }

  /** Whether the request carries several pass cookies for {@code room}. */
  public boolean repeatsPass(ServerHttpRequest request, String room) {
    return count(request, names(room).pass()) > 1;
  }

  /** Whether the request carries several ticket cookies for {@code room}. */
  public boolean repeatsTicket(ServerHttpRequest request, String room) {
    return count(request, names(room).ticket()) > 1;
  }

  /** A pass cookie that lives as long as the pass. */
  public ResponseCookie pass(String room, String token, Duration lifetime) {
    return cookie(PASS + room, token, lifetime);
  }

  /** A ticket cookie that lives for the browser session. */
  public ResponseCookie ticket(String room, String token) {
    return cookie(TICKET + room, token, null);
  }

  /** Removes the pass cookie of {@code room}. */
  public ResponseCookie clearPass(String room) {
    return cookie(PASS + room, "", Duration.ZERO);
  }

  /** Removes the ticket cookie of {@code room}. */
  public ResponseCookie clearTicket(String room) {
    return cookie(TICKET + room, "", Duration.ZERO);
  }

  private ResponseCookie cookie(String name, String value, Duration maxAge) {
    ResponseCookie.ResponseCookieBuilder cookie =
        ResponseCookie.from(name, value).httpOnly(true).secure(secure).sameSite("Lax").path("/");
    if (maxAge != null) {
      cookie.maxAge(maxAge);
    }
    return cookie.build();
  }

  private Names names(String room) {
    Names known = names.get(room);
    if (known != null) {
      return known;
    }
    Names named = new Names(room);
    if (names.size() < MAX_NAMED_ROOMS) {
      names.putIfAbsent(room, named);
    }
    return named;
  }

  private static String value(ServerHttpRequest request, String name) {
    List<String> values = cookies(request, name);
    if (values.size() != 1) {
      return null;
    }
    String value = values.get(0);
    return value.isEmpty() ? null : value;
  }

  private static int count(ServerHttpRequest request, String name) {
    return cookies(request, name).size();
  }

  /** As {@code request.getCookies().get(name)} would give them, without decoding the others. */
  private static List<String> cookies(ServerHttpRequest request, String name) {
    return CookieScan.values(request.getHeaders().get(HttpHeaders.COOKIE), name);
  }
}
