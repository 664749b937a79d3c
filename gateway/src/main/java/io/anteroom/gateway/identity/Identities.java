package io.anteroom.gateway.identity;

import io.anteroom.gateway.token.VisitorIds;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Visitor ids bound to identities, for the rooms whose {@code identity} setting names where the
 * identity comes from: the room and the identity are hashed (HMAC-SHA256 with {@code
 * anteroom.visitors.identity-secret}, or SHA-256 without one) into a visitor id, so one person
 * holds one place per queue across tabs and devices, and the raw identity never reaches Redis.
 * Rooms without the setting ignore such headers and cookies.
 */
public final class Identities {

  private final Map<String, IdentitySource> sources;
  private final byte[] secret;

  /**
   * @param sources each binding room's source of identities
   * @param secret the hash key, or empty for plain SHA-256
   */
  public Identities(Map<String, IdentitySource> sources, String secret) {
    this.sources = Map.copyOf(sources);
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether {@code room} binds identities. */
  public boolean binds(String room) {
    return sources.containsKey(room);
  }

  /**
   * The visitor id bound to the identity the request carries, or null when the room does not bind
   * identities or the request carries none (the browser's own id applies then).
   *
   * @param since the start of a scheduled event's sessions ({@link
   *     io.anteroom.queue.policy.Fairness#cutoff}), or null: from then on one identity has a new
   *     visitor id, so a session from before the event does not admit its holder into it
   */
  public String visitor(String room, ServerHttpRequest request, Instant since) {
    IdentitySource source = sources.get(room);
    String identity = source == null ? null : source.read(request);
    if (identity == null) {
      return null;
    }
    return visitorOf(room + (since == null ? "" : "@" + since.toEpochMilli()), identity);
  }

  String visitorOf(String room, String identity) {
    byte[] input = (room + "\n" + identity).getBytes(StandardCharsets.UTF_8);
    try {
      if (secret.length == 0) {
        return VisitorIds.fromDigest(MessageDigest.getInstance("SHA-256").digest(input));
      }
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return VisitorIds.fromDigest(mac.doFinal(input));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
