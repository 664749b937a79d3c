package io.anteroom.gateway.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpHeaders;

/**
 * The one request header that trusted proxies name the client in ({@code
 * anteroom.gateway.forwarded-header}). Only one is read, never a fallback to another: a proxy that
 * writes one header passes the others on as the client sent them, so reading a second one would let
 * the client choose its address again.
 */
public enum ForwardedHeader {

  /** {@code X-Forwarded-For: client, proxy1, proxy2}, each proxy appending its peer. */
  X_FORWARDED_FOR("X-Forwarded-For"),

  /**
   * RFC 7239, {@code Forwarded: for=client;proto=https, for="[2001:db8::1]:4711"}: the {@code for}
   * parameter of each element; an element without one is a hop that cannot be told.
   */
  FORWARDED("Forwarded"),

  /** {@code X-Real-IP: client}, one address that the proxy sets to its peer. */
  X_REAL_IP("X-Real-IP");

  private final String header;

  ForwardedHeader(String header) {
    this.header = header;
  }

  /** The header's name as sent. */
  public String header() {
    return header;
  }

  /** The setting's spelling: {@code x-forwarded-for}, {@code forwarded} or {@code x-real-ip}. */
  public String setting() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @throws IllegalArgumentException naming the valid values
   */
  public static ForwardedHeader parse(String setting) {
    for (ForwardedHeader candidate : values()) {
      if (candidate.setting().equalsIgnoreCase(setting.trim())) {
        return candidate;
      }
    }
    throw new IllegalArgumentException(
        "must be x-forwarded-for, forwarded or x-real-ip, was '" + setting + "'");
  }

  /**
   * The hops this header lists, leftmost (furthest from the gateway) first, each an address as
   * written without its port, or an empty string for a hop that names no address. Elements are cut
   * at every comma and semicolon without regard to quotes: addresses never contain them, and a
   * client's unbalanced quote cannot then swallow what a proxy appended after it.
   */
  List<String> hops(HttpHeaders headers) {
    List<String> hops = new ArrayList<>();
    List<String> values = headers.get(header);
    if (values == null) {
      return hops;
    }
    for (String value : values) {
      if (this == X_REAL_IP) {
        hops.add(withoutPort(value.trim()));
        continue;
      }
      for (String element : value.split(",", -1)) {
        hops.add(withoutPort(this == FORWARDED ? forParameter(element) : element.trim()));
      }
    }
    return hops;
  }

  /** The value of {@code for=} in one element of {@code Forwarded}, unquoted, or empty. */
  private static String forParameter(String element) {
    for (String pair : element.split(";")) {
      int equals = pair.indexOf('=');
      if (equals > 0 && pair.substring(0, equals).trim().equalsIgnoreCase("for")) {
        String value = pair.substring(equals + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
          value = value.substring(1, value.length() - 1);
        }
        return value;
      }
    }
    return "";
  }

  /** {@code 1.2.3.4:5678} and {@code [2001:db8::1]:5678} as proxies write them. */
  private static String withoutPort(String hop) {
    if (hop.startsWith("[")) {
      int close = hop.indexOf(']');
      return close < 0 ? hop : hop.substring(0, close + 1);
    }
    int colon = hop.indexOf(':');
    return colon > 0 && hop.indexOf(':', colon + 1) < 0 ? hop.substring(0, colon) : hop;
  }
}
