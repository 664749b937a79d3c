package io.anteroom.gateway.client;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The address of the client a request comes from. That is the peer of the connection, unless the
 * peer is one of the configured trusted proxies: then {@code X-Forwarded-For} is read from the
 * right, skipping trusted proxies, and the first address not trusted is the client. A client can
 * write anything into {@code X-Forwarded-For}, so only what trusted proxies appended is believed;
 * an entry that is not an IP address ends the walk with no answer rather than a guess.
 */
public final class ClientAddress {

  static final String FORWARDED_FOR = "X-Forwarded-For";

  /** Most entries read from {@code X-Forwarded-For}, so a long header costs a bounded walk. */
  static final int MAX_HOPS = 16;

  private final List<Cidr> trustedProxies;

  /**
   * @param trustedProxies the proxies whose {@code X-Forwarded-For} is believed; none means the
   *     header is ignored
   */
  public ClientAddress(List<Cidr> trustedProxies) {
    this.trustedProxies = List.copyOf(trustedProxies);
  }

  /** The client's address, or empty when it cannot be told. */
  public Optional<InetAddress> of(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    InetAddress peer = remote == null ? null : remote.getAddress();
    if (peer == null) {
      return Optional.empty();
    }
    if (!trusted(peer)) {
      return Optional.of(peer);
    }
    List<String> hops = hops(request.getHeaders().get(FORWARDED_FOR));
    InetAddress client = peer;
    for (int i = hops.size() - 1; i >= 0 && i >= hops.size() - MAX_HOPS; i--) {
      InetAddress hop = Cidr.literal(hops.get(i));
      if (hop == null) {
        return Optional.empty();
      }
      client = hop;
      if (!trusted(hop)) {
        return Optional.of(hop);
      }
    }
    // Every hop was a trusted proxy (a health check from inside, say): the leftmost is the client.
    return hops.size() > MAX_HOPS ? Optional.empty() : Optional.of(client);
  }

  private boolean trusted(InetAddress address) {
    for (Cidr proxy : trustedProxies) {
      if (proxy.contains(address)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> hops(List<String> headers) {
    List<String> hops = new ArrayList<>();
    if (headers != null) {
      for (String header : headers) {
        for (String hop : header.split(",")) {
          hops.add(withoutPort(hop.trim()));
        }
      }
    }
    return hops;
  }

  /** {@code 1.2.3.4:5678} and {@code [2001:db8::1]:5678} as some proxies write them. */
  private static String withoutPort(String hop) {
    if (hop.startsWith("[")) {
      int close = hop.indexOf(']');
      return close < 0 ? hop : hop.substring(0, close + 1);
    }
    int colon = hop.indexOf(':');
    return colon > 0 && hop.indexOf(':', colon + 1) < 0 ? hop.substring(0, colon) : hop;
  }
}
