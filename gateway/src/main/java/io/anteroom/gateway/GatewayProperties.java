package io.anteroom.gateway;

import io.anteroom.gateway.client.Cidr;
import io.anteroom.gateway.client.ForwardedHeader;
import io.anteroom.queue.QueueId;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The gateway's own settings.
 *
 * @param cookieSecure mark Anteroom's cookies {@code Secure}; default true, off only for a demo on
 *     plain http
 * @param waitingStatus HTTP status of the waiting page: 200, 202, 429 or 503; default 200
 * @param forwardPassHeader request header carrying the visitor's pass to the origin, so an origin
 *     can verify it too; default none
 * @param staticExtensions file extensions that pass without a queue (assets of the waiting page and
 *     the site), except on the path segment that holds a room's item; default common asset types
 * @param activateOnStart queues ({@code room:item}) turned on when the gateway starts, for an
 *     announced event; default none
 * @param mirrorRefresh how often active queues and live settings are re-read; default 250ms
 * @param registerFlush how often passes issued while queues are off are recorded; default 200ms
 * @param hitFlush how often request counts for activation by traffic are sent to Redis; default 1s
 * @param hitCapacity most queues whose requests one gateway counts between two flushes (a flood of
 *     random items churns through the smallest counts); default 10000
 * @param maxQueuesPerRoom most queues of one room that may be on when a gateway turns one on
 *     automatically (operators are not limited), so made-up item ids cannot grow the set of active
 *     queues without limit; default 1000
 * @param trustedProxies addresses or CIDR ranges of the proxies and load balancers in front of the
 *     gateway, whose {@code forwarded-header} is believed when telling a client's address; default
 *     none (the connection's peer is the client)
 * @param forwardedHeader the one header trusted proxies name the client in: {@code
 *     x-forwarded-for}, {@code forwarded} (RFC 7239) or {@code x-real-ip}; default {@code
 *     x-forwarded-for}
 * @param ipv6Prefix length of the network an IPv6 client is counted by in limits per client address
 *     (1 to 128; 128 counts each address); default 64
 * @param frameworkHeaderFilters keep Spring Cloud Gateway's own header filters, which copy every
 *     header of a request once each, instead of Anteroom's one copy that removes the same headers
 *     ({@link io.anteroom.gateway.origin.OriginHeadersRegistrar}, which reads it before this record
 *     is bound); default false
 * @param maxRequestHeaders most header lines a request may carry; one with more is answered 431
 *     before it reaches a route, as an origin would drop its connection (Tomcat takes 100); default
 *     100
 * @param maxRequestBody the largest request body the gateway reads before forwarding; a larger one
 *     is answered 413 (nginx's default is 1MB too); default 1MB
 * @param requestBodyTimeout how long a request body may take to arrive in whole before it is
 *     forwarded; a slower one is answered 408, so it never holds a worker of the origin; default
 *     30s
 * @param requestBodiesHeld the most bytes of request bodies the gateway holds at once, all requests
 *     together; a body arriving beyond it is answered 503, so many large bodies held open cannot
 *     exhaust the gateway's memory; default 64MB
 */
@ConfigurationProperties("anteroom.gateway")
public record GatewayProperties(
    @DefaultValue("true") boolean cookieSecure,
    @DefaultValue("200") int waitingStatus,
    @DefaultValue("") String forwardPassHeader,
    @DefaultValue({
          "css", "js", "mjs", "map", "png", "jpg", "jpeg", "gif", "svg", "ico", "webp", "avif",
          "woff", "woff2", "ttf"
        })
        List<String> staticExtensions,
    @DefaultValue({}) List<String> activateOnStart,
    @DefaultValue("250ms") Duration mirrorRefresh,
    @DefaultValue("200ms") Duration registerFlush,
    @DefaultValue("1s") Duration hitFlush,
    @DefaultValue("10000") int hitCapacity,
    @DefaultValue("1000") int maxQueuesPerRoom,
    @DefaultValue({}) List<String> trustedProxies,
    @DefaultValue("x-forwarded-for") String forwardedHeader,
    @DefaultValue("64") int ipv6Prefix,
    @DefaultValue("false") boolean frameworkHeaderFilters,
    @DefaultValue("100") int maxRequestHeaders,
    @DefaultValue("1MB") DataSize maxRequestBody,
    @DefaultValue("30s") Duration requestBodyTimeout,
    @DefaultValue("64MB") DataSize requestBodiesHeld) {

  private static final Set<Integer> WAITING_STATUSES = Set.of(200, 202, 429, 503);

  public GatewayProperties {
    if (!WAITING_STATUSES.contains(waitingStatus)) {
      throw new IllegalArgumentException(
          "anteroom.gateway.waiting-status: must be 200, 202, 429 or 503, was " + waitingStatus);
    }
    staticExtensions =
        staticExtensions.stream().map(e -> e.toLowerCase(Locale.ROOT)).distinct().toList();
    activateOnStart = List.copyOf(activateOnStart);
    for (String queue : activateOnStart) {
      int colon = queue.indexOf(':');
      try {
        QueueId.of(queue.substring(0, Math.max(colon, 0)), queue.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "anteroom.gateway.activate-on-start: '" + queue + "' is not room:item", e);
      }
    }
    aboveZero("anteroom.gateway.mirror-refresh", mirrorRefresh);
    aboveZero("anteroom.gateway.register-flush", registerFlush);
    aboveZero("anteroom.gateway.hit-flush", hitFlush);
    if (maxQueuesPerRoom < 1) {
      throw new IllegalArgumentException(
          "anteroom.gateway.max-queues-per-room: must be at least 1, was " + maxQueuesPerRoom);
    }
    trustedProxies = List.copyOf(trustedProxies);
    trustedProxyRanges(trustedProxies);
    forwardedHeaderOf(forwardedHeader);
    if (ipv6Prefix < 1 || ipv6Prefix > 128) {
      throw new IllegalArgumentException(
          "anteroom.gateway.ipv6-prefix: must be 1 to 128, was " + ipv6Prefix);
    }
    if (maxRequestHeaders < 1 || maxRequestHeaders > 10_000) {
      throw new IllegalArgumentException(
          "anteroom.gateway.max-request-headers: must be 1 to 10000, was " + maxRequestHeaders);
    }
    if (maxRequestBody.toBytes() < 1 || maxRequestBody.toBytes() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "anteroom.gateway.max-request-body: must be above 0 and below 2GB, was "
              + maxRequestBody);
    }
    aboveZero("anteroom.gateway.request-body-timeout", requestBodyTimeout);
    if (requestBodiesHeld.toBytes() < maxRequestBody.toBytes()) {
      throw new IllegalArgumentException(
          "anteroom.gateway.request-bodies-held: must be at least max-request-body ("
              + maxRequestBody
              + "), was "
              + requestBodiesHeld);
    }
    if (hitCapacity < 1) {
      throw new IllegalArgumentException(
          "anteroom.gateway.hit-capacity: must be at least 1, was " + hitCapacity);
    }
  }

  /** The queues of {@link #activateOnStart()}. */
  public List<QueueId> queuesToActivate() {
    return activateOnStart.stream()
        .map(q -> QueueId.of(q.substring(0, q.indexOf(':')), q.substring(q.indexOf(':') + 1)))
        .toList();
  }

  /** {@link #trustedProxies()} parsed. */
  public List<Cidr> trustedProxyRanges() {
    return trustedProxyRanges(trustedProxies);
  }

  private static List<Cidr> trustedProxyRanges(List<String> proxies) {
    try {
      return proxies.stream().map(Cidr::parse).toList();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("anteroom.gateway.trusted-proxies: " + e.getMessage(), e);
    }
  }

  /** {@link #forwardedHeader()} parsed. */
  public ForwardedHeader forwardedHeaderKind() {
    return forwardedHeaderOf(forwardedHeader);
  }

  private static ForwardedHeader forwardedHeaderOf(String header) {
    try {
      return ForwardedHeader.parse(header);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("anteroom.gateway.forwarded-header: " + e.getMessage(), e);
    }
  }

  private static void aboveZero(String property, Duration value) {
    if (value.isZero()) {
      throw new IllegalArgumentException(property + ": must be above 0");
    }
  }
}
