package io.anteroom.gateway.filter;

import io.anteroom.gateway.pass.AnteroomCookies;
import java.util.ArrayList;
import java.util.List;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Removes what clients send in Anteroom's name before a request reaches the origin: headers
 * starting with {@code Anteroom-} and Anteroom's cookies. The origin sees what it would see without
 * Anteroom, plus the pass header when configured.
 *
 * <p>The waiting room marks a request it forwards ({@link #forward}); the scrubbing happens where
 * Spring Cloud Gateway builds the origin's request from the visitor's headers, as one of its {@link
 * HttpHeadersFilter}s, after it has dropped the hop-by-hop headers into a copy of its own. So a
 * forwarded request costs an exchange attribute, not a mutated copy of the request and exchange;
 * requests of routes without a waiting room carry no mark and pass untouched. Runs on every
 * forwarded request, so it scans names and cookies in place instead of lower-casing and splitting
 * them.
 */
final class RequestScrubber implements HttpHeadersFilter, Ordered {

  static final String HEADER_PREFIX = "anteroom-";

  /** The exchange attribute that marks a request the waiting room forwards: its {@link Mark}. */
  static final String MARK = RequestScrubber.class.getName() + ".mark";

  /** What the origin gets on top of the scrubbed headers: a header, or none. */
  private record Mark(String header, String value) {}

  private static final Mark NOTHING = new Mark(null, null);
  private static final Mark DEGRADED = new Mark(Forwarder.DEGRADED_HEADER, "line-unavailable");

  private final String passHeader;

  /**
   * @param passHeader header to carry the visitor's pass to the origin, or empty for none
   */
  RequestScrubber(String passHeader) {
    this.passHeader = passHeader;
  }

  /** After the framework's filters, hop-by-hop headers removal (which copies the headers) first. */
  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  /**
   * Marks {@code exchange} to be scrubbed on its way to the origin.
   *
   * @param pass the visitor's pass token to forward, or null
   */
  void forward(ServerWebExchange exchange, String pass) {
    exchange
        .getAttributes()
        .put(MARK, pass != null && !passHeader.isEmpty() ? new Mark(passHeader, pass) : NOTHING);
  }

  /**
   * Marks {@code exchange} to be scrubbed on its way to the origin, which sees {@value
   * Forwarder#DEGRADED_HEADER}{@code : line-unavailable}.
   */
  void forwardDegraded(ServerWebExchange exchange) {
    exchange.getAttributes().put(MARK, DEGRADED);
  }

  @Override
  public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
    if (!(exchange.getAttribute(MARK) instanceof Mark mark)) {
      return input;
    }
    // The request's own headers are read-only; the framework's filters before this one hand on a
    // copy of their own.
    HttpHeaders headers = input == exchange.getRequest().getHeaders() ? copyOf(input) : input;
    scrub(headers);
    if (mark.header() != null) {
      headers.set(mark.header(), mark.value());
    }
    return headers;
  }

  private static HttpHeaders copyOf(HttpHeaders input) {
    HttpHeaders copy = new HttpHeaders();
    copy.addAll(input);
    return copy;
  }

  private void scrub(HttpHeaders headers) {
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
