package io.anteroom.gateway.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 address range such as {@code 10.0.0.0/8} or {@code 2001:db8::/32}; a bare address
 * is a range of one. Parsing never resolves a host name. An IPv4-mapped IPv6 address ({@code
 * ::ffff:10.0.0.1}) is the IPv4 address it maps.
 */
public final class Cidr {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private final byte[] network;
  private final int prefix;

  private Cidr(byte[] network, int prefix) {
    this.network = network;
    this.prefix = prefix;
  }

  /**
   * @throws IllegalArgumentException when {@code text} is not an address or address/prefix
   */
  public static Cidr parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    int slash = trimmed.indexOf('/');
    InetAddress address = literal(slash < 0 ? trimmed : trimmed.substring(0, slash));
    if (address == null) {
      throw new IllegalArgumentException("'" + text + "' is not an IP address or CIDR range");
    }
    byte[] bytes = address.getAddress();
    int prefix = bytes.length * 8;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(trimmed.substring(slash + 1));
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > bytes.length * 8) {
        throw new IllegalArgumentException(
            "'" + text + "': the prefix length must be 0 to " + bytes.length * 8);
      }
    }
    return new Cidr(mask(bytes, prefix), prefix);
  }

  /**
   * The network of {@code prefix} bits that {@code address} lies in.
   *
   * @throws IllegalArgumentException when the prefix is longer than the address
   */
  public static Cidr network(InetAddress address, int prefix) {
    byte[] bytes = address.getAddress();
    if (prefix < 0 || prefix > bytes.length * 8) {
      throw new IllegalArgumentException("the prefix length must be 0 to " + bytes.length * 8);
    }
    return new Cidr(mask(bytes, prefix), prefix);
  }

  /**
   * The address written in {@code text} (IPv4 dotted, or IPv6 with or without brackets), or null;
   * never a DNS lookup.
   */
  public static InetAddress literal(String text) {
    String candidate = text == null ? "" : text.trim();
    if (candidate.startsWith("[") && candidate.endsWith("]")) {
      candidate = candidate.substring(1, candidate.length() - 1);
    }
    try {
      if (IPV4.matcher(candidate).matches()) {
        return ipv4(candidate);
      }
      // With a colon, the JDK parses an IPv6 literal or fails; it never asks DNS.
      return IPV6.matcher(candidate).matches() ? InetAddress.getByName(candidate) : null;
    } catch (UnknownHostException | IllegalArgumentException | SecurityException e) {
      return null;
    }
  }

  /** Built from its four numbers, so an octet above 255 can never become a DNS lookup. */
  private static InetAddress ipv4(String dotted) throws UnknownHostException {
    String[] parts = dotted.split("\\.");
    byte[] bytes = new byte[4];
    for (int i = 0; i < 4; i++) {
      int octet = Integer.parseInt(parts[i]);
      if (octet > 255) {
        return null;
      }
      bytes[i] = (byte) octet;
    }
    return InetAddress.getByAddress(bytes);
  }

  /** Whether {@code address} lies in this range. */
  public boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    return bytes.length == network.length && Arrays.equals(mask(bytes, prefix), network);
  }

  @Override
  public String toString() {
    try {
      return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cidr cidr
        && prefix == cidr.prefix
        && Arrays.equals(network, cidr.network);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(network) + prefix;
  }

  private static byte[] mask(byte[] bytes, int prefix) {
    byte[] masked = bytes.clone();
    for (int i = 0; i < masked.length; i++) {
      int bits = Math.max(0, Math.min(8, prefix - i * 8));
      masked[i] = (byte) (masked[i] & (0xff << (8 - bits)));
    }
    return masked;
  }
}
