package io.anteroom.gateway.filter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The address of the client behind a request. {@code X-Forwarded-For} is believed only as far as it
 * was written by trusted proxies: starting at the connection's peer, each hop that is a trusted
 * proxy is replaced by the address it says it received from, from right to left, and the first
 * address that is not a trusted proxy is the client. A request from an untrusted peer is its own
 * client, whatever the header says, so the header cannot be used to pose as someone else.
 */
public final class ClientAddress {

  static final String FORWARDED_FOR = "X-Forwarded-For";

  /** Address literals only: a header value is never resolved as a host name. */
  private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

  private final List<Network> trusted;

  /**
   * @param trustedProxies addresses ({@code 10.0.0.7}) or networks ({@code 10.0.0.0/8}, {@code
   *     fd00::/8}) of the proxies in front of the gateway
   * @throws IllegalArgumentException naming an entry that is neither
   */
  public ClientAddress(List<String> trustedProxies) {
    List<Network> networks = new ArrayList<>();
    for (String entry : trustedProxies) {
      networks.add(Network.parse(entry));
    }
    this.trusted = List.copyOf(networks);
  }

  /** The client's address as text, or {@code unknown} when the connection has no peer address. */
  public String of(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    InetAddress client = remote == null ? null : remote.getAddress();
    if (client == null) {
      return "unknown";
    }
    List<String> hops = request.getHeaders().getValuesAsList(FORWARDED_FOR);
    for (int i = hops.size() - 1; i >= 0 && isTrusted(client); i--) {
      InetAddress hop = literal(hops.get(i));
      if (hop == null) {
        break;
      }
      client = hop;
    }
    return client.getHostAddress();
  }

  boolean isTrusted(InetAddress address) {
    for (Network network : trusted) {
      if (network.contains(address)) {
        return true;
      }
    }
    return false;
  }

  /** The address written in {@code text}, or null when it is not an address literal. */
  static InetAddress literal(String text) {
    String value = text.trim();
    if (value.startsWith("[") && value.endsWith("]")) {
      value = value.substring(1, value.length() - 1);
    }
    if (!LITERAL.matcher(value).matches() || (value.indexOf(':') < 0 && value.indexOf('.') < 0)) {
      return null;
    }
    try {
      return InetAddress.getByName(value);
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** An address with a prefix length. */
  private record Network(byte[] address, int bits) {

    static Network parse(String entry) {
      String text = entry == null ? "" : entry.trim();
      int slash = text.indexOf('/');
      InetAddress address = literal(slash < 0 ? text : text.substring(0, slash));
      if (address == null) {
        throw new IllegalArgumentException(
            "anteroom.visitors.trusted-proxies: not an address or network: '" + entry + "'");
      }
      int max = address.getAddress().length * 8;
      int bits = max;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > max) {
          throw new IllegalArgumentException(
              "anteroom.visitors.trusted-proxies: prefix length out of range: '" + entry + "'");
        }
      }
      return new Network(address.getAddress(), bits);
    }

    boolean contains(InetAddress candidate) {
      byte[] other = candidate.getAddress();
      if (other.length != address.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (other[i] != address[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = 0xff << (8 - rest) & 0xff;
      return (other[full] & mask) == (address[full] & mask);
    }
  }
}
