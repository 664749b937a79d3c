package io.anteroom.gateway.filter;

import io.anteroom.gateway.pass.AnteroomCookies;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Removes what clients send in Anteroom's name before a request reaches the origin: headers
 * starting with {@code Anteroom-} and Anteroom's cookies. The origin sees what it would see without
 * Anteroom, plus the pass header when configured. Runs on every forwarded request, so it scans
 * names and cookies in place instead of lower-casing and splitting them.
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
    List<String> own = null;
    for (String name : headers.headerNames()) {
      if (name.regionMatches(true, 0, HEADER_PREFIX, 0, HEADER_PREFIX.length())
          || (!passHeader.isEmpty() && name.equalsIgnoreCase(passHeader))) {
        if (own == null) {
          own = new ArrayList<>(2);
        }
        own.add(name);
      }
    }
    if (own != null) {
      own.forEach(headers::remove);
    }
    List<String> cookies = headers.get(HttpHeaders.COOKIE);
    if (cookies != null) {
      String kept = keptCookies(cookies);
      headers.remove(HttpHeaders.COOKIE);
      if (!kept.isEmpty()) {
        headers.set(HttpHeaders.COOKIE, kept);
      }
    }
    if (!passHeader.isEmpty() && pass != null) {
      headers.set(passHeader, pass);
    }
  }

  /** The cookie pairs that are not Anteroom's, trimmed, joined by {@code "; "}. */
  static String keptCookies(List<String> cookieHeaders) {
    StringBuilder kept = new StringBuilder();
    for (String header : cookieHeaders) {
      int start = 0;
      while (start <= header.length()) {
        int end = header.indexOf(';', start);
        if (end < 0) {
          end = header.length();
        }
        int from = start;
        int to = end;
        // What String.trim() removes: every character up to and including the space.
        while (from < to && header.charAt(from) <= ' ') {
          from++;
        }
        while (to > from && header.charAt(to - 1) <= ' ') {
          to--;
        }
        if (from < to && !header.startsWith(AnteroomCookies.PREFIX, from)) {
          if (!kept.isEmpty()) {
            kept.append("; ");
          }
          kept.append(header, from, to);
        }
        start = end + 1;
      }
    }
    return kept.toString();
  }
}
