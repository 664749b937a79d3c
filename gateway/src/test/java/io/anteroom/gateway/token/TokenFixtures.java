package io.anteroom.gateway.token;

import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import io.anteroom.queue.time.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Keys, a codec at a fixed time, and tokens built by hand, byte by byte. */
final class TokenFixtures {

  static final String ROOM = "flash-sale";
  static final String VISITOR = "vQx3n0kq7S2mB8yZfL1aPg";
  static final byte[] K1 = secret(1);
  static final byte[] K2 = secret(2);
  static final Duration LEEWAY = Duration.ofSeconds(5);
  static final Duration TICKET_MAX_AGE = Duration.ofHours(24);
  static final Duration LIFETIME = Duration.ofMinutes(10);

  private TokenFixtures() {}

  static byte[] secret(int fill) {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) fill);
    return secret;
  }

  static TokenKeys k1() {
    return new TokenKeys("k1", Map.of("k1", K1));
  }

  static TokenCodec codec(Clock clock) {
    return codec(k1(), clock);
  }

  static TokenCodec codec(TokenKeys keys, Clock clock) {
    return new TokenCodec(keys, "anteroom", clock, LEEWAY, TICKET_MAX_AGE);
  }

  /** Claims of a valid pass issued now for {@link #VISITOR} in {@link #ROOM}. */
  static Map<String, Object> passClaims(MutableClock clock) {
    long now = clock.millis() / 1000;
    Map<String, Object> claims = new LinkedHashMap<>();
    claims.put("iss", "anteroom");
    claims.put("sub", VISITOR);
    claims.put("aud", ROOM);
    claims.put("items", List.of("sku-1", "_"));
    claims.put("iat", now);
    claims.put("exp", now + LIFETIME.toSeconds());
    claims.put("jti", "n8Jm2c0xQeWl4pVb7sYt1A");
    return claims;
  }

  /** Claims of a valid ticket issued now for {@link #VISITOR} in {@code flash-sale:sku-1}. */
  static Map<String, Object> ticketClaims(MutableClock clock) {
    Map<String, Object> claims = passClaims(clock);
    claims.remove("items");
    claims.remove("exp");
    claims.put("item", "sku-1");
    return claims;
  }

  static String passHeader(String kid) {
    return "{\"alg\":\"HS256\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"" + kid + "\"}";
  }

  /** A compact JWS of exactly these JSON texts, HMAC-SHA256-signed with {@code secret}. */
  static String hs256(String headerJson, String payloadJson, byte[] secret) {
    String input = encode(headerJson) + "." + encode(payloadJson);
    return input + "." + Base64URL.encode(hmac(input, secret));
  }

  static String hs256(String headerJson, Map<String, Object> claims, byte[] secret) {
    return hs256(headerJson, JSONObjectUtils.toJSONString(claims), secret);
  }

  static String encode(String json) {
    return Base64URL.encode(json.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** The decoded JSON of part {@code index} (0 header, 1 payload) of a compact token. */
  static String part(String token, int index) {
    return new Base64URL(token.split("\\.")[index]).decodeToString();
  }

  private static byte[] hmac(String input, byte[] secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
