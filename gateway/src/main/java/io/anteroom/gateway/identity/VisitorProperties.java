package io.anteroom.gateway.identity;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The key of bound identities. (The client address behind trusted proxies is {@code
 * anteroom.gateway.trusted-proxies}.)
 *
 * @param identitySecret key of the keyed hash that turns a bound identity (a room's {@code
 *     identity} setting) into a visitor id, at least 16 characters; the same on every gateway, and
 *     kept: changing it gives everyone a new visitor id. Default none: a SHA-256 hash, which still
 *     keeps raw ids out of Redis but can be reversed for guessable ids
 */
@ConfigurationProperties("anteroom.visitors")
public record VisitorProperties(@DefaultValue("") String identitySecret) {

  public VisitorProperties {
    if (!identitySecret.isEmpty() && identitySecret.length() < 16) {
      throw new IllegalArgumentException(
          "anteroom.visitors.identity-secret: must be at least 16 characters");
    }
  }
}
