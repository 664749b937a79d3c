package io.anteroom.gateway.filter;

import io.anteroom.gateway.pass.AnteroomCookies;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Removes what clients send in Anteroom's name before a request reaches the origin: headers
 * starting with {@code Anteroom-} and Anteroom's cookies. The origin sees what it would see without
 * Anteroom, plus the pass header when configured.
 */
final class RequestScrubber {

  static final String HEADER_PREFIX = "anteroom-";

  private final String passHeader;

  /**
   * @param passHeader header to carry the visitor's pass to the origin, or empty for none
   */
  RequestScrubber(String passHeader) {
    this.passHeader = passHeader;
  }

  /**
   * @param pass the visitor's pass token to forward, or null
   */
  ServerHttpRequest scrub(ServerHttpRequest request, String pass) {
    return request.mutate().headers(headers -> scrub(headers, pass)).build();
  }

  private void scrub(HttpHeaders headers, String pass) {
    List<String> own = new ArrayList<>();
    for (String name : headers.headerNames()) {
      if (name.toLowerCase(Locale.ROOT).startsWith(HEADER_PREFIX)
          || (!passHeader.isEmpty() && name.equalsIgnoreCase(passHeader))) {
        own.add(name);
      }
    }
    own.forEach(headers::remove);
    List<String> cookies = headers.get(HttpHeaders.COOKIE);
    if (cookies != null) {
      List<String> kept = keptCookies(cookies);
      headers.remove(HttpHeaders.COOKIE);
      if (!kept.isEmpty()) {
        headers.set(HttpHeaders.COOKIE, String.join("; ", kept));
      }
    }
    if (!passHeader.isEmpty() && pass != null) {
      headers.set(passHeader, pass);
    }
  }

  private static List<String> keptCookies(List<String> cookieHeaders) {
    List<String> kept = new ArrayList<>();
    for (String header : cookieHeaders) {
      for (String pair : header.split(";")) {
        String trimmed = pair.trim();
        if (!trimmed.isEmpty() && !trimmed.startsWith(AnteroomCookies.PREFIX)) {
          kept.add(trimmed);
        }
      }
    }
    return kept;
  }
}
