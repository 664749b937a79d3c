package io.anteroom.gateway.admin;

import java.net.InetSocketAddress;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Who made an admin request, for the audit trail: the name of the token it was authenticated with
 * ({@link Operator}), never a value the caller chooses, and the address the request came from.
 */
record Actor(String name, String address) {

  static Actor of(ServerRequest request) {
    String address =
        request
            .remoteAddress()
            .map(InetSocketAddress::getAddress)
            .map(a -> a.getHostAddress())
            .orElse("unknown");
    return new Actor(Operator.of(request).name(), address);
  }
}
