package io.anteroom.gateway.identity;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who a visitor is: where the client address comes from, and the key of bound identities.
 *
 * @param trustedProxies addresses or networks ({@code 10.0.0.0/8}) of the proxies in front of the
 *     gateway, whose {@code X-Forwarded-For} is believed; default none (the connection's peer is
 *     the client)
 * @param identitySecret key of the keyed hash that turns a bound identity (a room's {@code
 *     identity} setting) into a visitor id, at least 16 characters; the same on every gateway, and
 *     kept: changing it gives everyone a new visitor id. Default none: a SHA-256 hash, which still
 *     keeps raw ids out of Redis but can be reversed for guessable ids
 */
@ConfigurationProperties("anteroom.visitors")
public record VisitorProperties(
    @DefaultValue({}) List<String> trustedProxies, @DefaultValue("") String identitySecret) {

  public VisitorProperties {
    trustedProxies = List.copyOf(trustedProxies);
    if (!identitySecret.isEmpty() && identitySecret.length() < 16) {
      throw new IllegalArgumentException(
          "anteroom.visitors.identity-secret: must be at least 16 characters");
    }
  }
}
