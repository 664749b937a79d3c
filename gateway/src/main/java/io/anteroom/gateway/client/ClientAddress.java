package io.anteroom.gateway.client;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import reactor.netty.http.server.ConnectionInformation;

/**
 * The address of the client a request comes from, decided here and nowhere else. It is the peer of
 * the connection, unless the peer is one of the configured trusted proxies: then the configured
 * {@link ForwardedHeader} is read from the right, skipping trusted proxies, and the first address
 * not trusted is the client. A client can write anything into such headers, so only what trusted
 * proxies appended is believed; a hop that is not an IP address ends the walk with no answer rather
 * than a guess.
 *
 * <p>The peer is read from the connection itself, not from {@link
 * ServerHttpRequest#getRemoteAddress()}, which a server's own forwarded-header handling rewrites
 * from whatever the client sent.
 */
public final class ClientAddress {

  /** Most hops read from the header, so a long header costs a bounded walk. */
  static final int MAX_HOPS = 16;

  private final List<Cidr> trustedProxies;
  private final ForwardedHeader header;
  private final int ipv6Prefix;

  /**
   * @param trustedProxies the proxies whose {@code header} is believed; none means it is ignored
   * @param header the header trusted proxies name the client in
   * @param ipv6Prefix the length of the network an IPv6 client is counted by ({@link #countedAs}),
   *     1 to 128
   */
  public ClientAddress(List<Cidr> trustedProxies, ForwardedHeader header, int ipv6Prefix) {
    this.trustedProxies = List.copyOf(trustedProxies);
    this.header = header;
    this.ipv6Prefix = ipv6Prefix;
  }

  /** The client's address, or empty when it cannot be told. */
  public Optional<InetAddress> of(ServerHttpRequest request) {
    InetAddress peer = peer(request);
    if (peer == null) {
      return Optional.empty();
    }
    if (!trusted(peer)) {
      return Optional.of(peer);
    }
    List<String> hops = header.hops(request.getHeaders());
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

  /**
   * What limits per client address count the client as: an IPv4 address itself, an IPv6 address by
   * its network of the configured prefix length (one subscriber usually holds a whole /64), as text
   * such as {@code 203.0.113.7} or {@code 2001:db8:1:2:0:0:0:0/64}; empty when the client cannot be
   * told.
   */
  public Optional<String> countedAs(ServerHttpRequest request) {
    return of(request)
        .map(
            address ->
                address instanceof Inet6Address && ipv6Prefix < 128
                    ? Cidr.network(address, ipv6Prefix).toString()
                    : address.getHostAddress());
  }

  /**
   * The connection's peer: from Reactor Netty's connection, which no forwarded header changes, or
   * where there is none (a request built in a test) the request's remote address.
   */
  private static InetAddress peer(ServerHttpRequest request) {
    SocketAddress remote = request.getRemoteAddress();
    Object connection = nativeRequest(request);
    if (connection instanceof ConnectionInformation information) {
      remote = information.connectionRemoteAddress();
    }
    return remote instanceof InetSocketAddress socket ? socket.getAddress() : null;
  }

  private static Object nativeRequest(ServerHttpRequest request) {
    try {
      return ServerHttpRequestDecorator.getNativeRequest(request);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return null;
    }
  }

  private boolean trusted(InetAddress address) {
    for (Cidr proxy : trustedProxies) {
      if (proxy.contains(address)) {
        return true;
      }
    }
    return false;
  }
}
