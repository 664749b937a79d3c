package io.anteroom.gateway.origin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.springframework.cloud.gateway.filter.headers.ForwardedHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.util.StringUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * The headers of a request on its way to the origin, and of the origin's answer on its way back,
 * filtered in one copy. Spring Cloud Gateway's own header filters each copy every header into a new
 * map: one removes {@code Forwarded}, one {@code X-Forwarded-*}, one the hop-by-hop headers, and
 * one copies them again to add {@code te: trailers} to gRPC requests; four copies of every
 * request's headers. This filter does what the ones it replaces did ({@link OriginHeadersRegistrar}
 * says which), in one pass: the origin gets the same headers.
 *
 * <p>Runs where the framework's hop-by-hop filter ran: after its transfer-encoding normalization
 * (which must see {@code Transfer-Encoding} before it goes), before Anteroom's own scrubbing of the
 * waiting room's cookies, which works on this filter's copy.
 */
public final class OriginHeaders implements HttpHeadersFilter, Ordered {

  /**
   * What the framework's hop-by-hop filter removes, in both directions, besides the headers {@code
   * Connection} names; lower case, compared ignoring case so that no name is lower-cased per
   * request.
   */
  private static final List<String> HOP_BY_HOP =
      List.copyOf(RemoveHopByHopHeadersFilter.HEADERS_REMOVED_ON_REQUEST);

  private static final String X_FORWARDED = "x-forwarded-";

  private final Type type;
  private final boolean dropForwarded;
  private final boolean dropXForwarded;
  private final boolean grpcTrailers;

  private OriginHeaders(
      Type type, boolean dropForwarded, boolean dropXForwarded, boolean grpcTrailers) {
    this.type = type;
    this.dropForwarded = dropForwarded;
    this.dropXForwarded = dropXForwarded;
    this.grpcTrailers = grpcTrailers;
  }

  /**
   * The filter of requests to the origin.
   *
   * @param dropForwarded remove {@code Forwarded}
   * @param dropXForwarded remove every {@code X-Forwarded-*} header
   * @param grpcTrailers add {@code te: trailers} to a request whose content type is gRPC's
   */
  public static OriginHeaders requests(
      boolean dropForwarded, boolean dropXForwarded, boolean grpcTrailers) {
    return new OriginHeaders(Type.REQUEST, dropForwarded, dropXForwarded, grpcTrailers);
  }

  /** The filter of the origin's answers: hop-by-hop headers only. */
  public static OriginHeaders answers() {
    return new OriginHeaders(Type.RESPONSE, false, false, false);
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE - 1;
  }

  @Override
  public boolean supports(Type type) {
    return this.type == type;
  }

  @Override
  public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
    List<String> named = connectionOptions(input);
    HttpHeaders kept = new HttpHeaders();
    for (Map.Entry<String, List<String>> header : input.headerSet()) {
      String name = header.getKey();
      if (!dropped(name) && !contains(named, name)) {
        kept.addAll(name, header.getValue());
      }
    }
    if (grpcTrailers
        && StringUtils.startsWithIgnoreCase(
            input.getFirst(HttpHeaders.CONTENT_TYPE), "application/grpc")) {
      kept.add("te", "trailers");
    }
    return kept;
  }

  private boolean dropped(String name) {
    for (String hopByHop : HOP_BY_HOP) {
      if (hopByHop.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return (dropForwarded && name.equalsIgnoreCase(ForwardedHeadersFilter.FORWARDED_HEADER))
        || (dropXForwarded && name.regionMatches(true, 0, X_FORWARDED, 0, X_FORWARDED.length()));
  }

  /** The header names {@code Connection} lists as hop-by-hop headers of its own; empty for none. */
  private static List<String> connectionOptions(HttpHeaders headers) {
    List<String> connection = headers.get(HttpHeaders.CONNECTION);
    if (connection == null) {
      return List.of();
    }
    List<String> options = new ArrayList<>();
    for (String value : connection) {
      options.addAll(Arrays.asList(StringUtils.tokenizeToStringArray(value, ",")));
    }
    return options;
  }

  private static boolean contains(List<String> names, String name) {
    for (String each : names) {
      if (each.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }
}
