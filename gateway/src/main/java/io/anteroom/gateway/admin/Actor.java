package io.anteroom.gateway.admin;

import java.net.InetSocketAddress;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Who made an admin request, for the audit log: the name the caller gives in {@value #HEADER}
 * (letters, digits and {@code . _ @ + -} only, at most {@value #MAX_NAME} characters; {@code admin}
 * without one) and the address the request came from.
 */
record Actor(String name, String address) {

  static final String HEADER = "X-Anteroom-Actor";
  static final String DEFAULT_NAME = "admin";
  static final int MAX_NAME = 64;

  static Actor of(ServerRequest request) {
    String address =
        request
            .remoteAddress()
            .map(InetSocketAddress::getAddress)
            .map(a -> a.getHostAddress())
            .orElse("unknown");
    return new Actor(name(request.headers().firstHeader(HEADER)), address);
  }

  /** The header's value made safe for a log line; {@code admin} when there is nothing left. */
  static String name(String header) {
    if (header == null) {
      return DEFAULT_NAME;
    }
    StringBuilder name = new StringBuilder();
    String trimmed = header.strip();
    for (int i = 0; i < trimmed.length() && name.length() < MAX_NAME; i++) {
      char c = trimmed.charAt(i);
      boolean safe =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || ".-_@+".indexOf(c) >= 0;
      name.append(safe ? c : '_');
    }
    return name.isEmpty() ? DEFAULT_NAME : name.toString();
  }
}
