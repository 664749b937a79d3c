package io.anteroom.gateway.client;

import java.util.Locale;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.server.autoconfigure.ServerProperties.ForwardHeadersStrategy;
import org.springframework.core.env.Environment;

/**
 * Keeps the server's own forwarded-header handling off. Spring Boot turns it on by itself when it
 * detects a cloud platform (Kubernetes, Cloud Foundry, …) and {@code
 * server.forward-headers-strategy} is unset; it then believes the leftmost {@code X-Forwarded-For}
 * or {@code Forwarded} of any client, which would let every client choose its own address and host.
 * The gateway's {@code application.yml} sets it to {@code none}; this check stops start-up when
 * anything sets it otherwise, so no platform or file can turn it back on silently.
 */
final class ServerForwardingCheck {

  static final String PROPERTY = "server.forward-headers-strategy";

  private ServerForwardingCheck() {}

  /**
   * @throws IllegalStateException naming the setting when it is not {@code none}
   */
  static void requireOff(Environment environment) {
    ForwardHeadersStrategy strategy =
        Binder.get(environment).bind(PROPERTY, ForwardHeadersStrategy.class).orElse(null);
    if (strategy != ForwardHeadersStrategy.NONE) {
      throw new IllegalStateException(
          PROPERTY
              + ": must be none, was "
              + (strategy == null ? "unset" : strategy.name().toLowerCase(Locale.ROOT))
              + ". The gateway reads forwarded headers itself, and only from the proxies in"
              + " anteroom.gateway.trusted-proxies (anteroom.gateway.forwarded-header names the"
              + " header they write)");
    }
  }
}
