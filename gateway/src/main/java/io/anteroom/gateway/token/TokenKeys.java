package io.anteroom.gateway.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HMAC keys, built once: one signer for new tokens, and a verifier for every accepted kid. Both
 * nimbus classes are thread-safe, so one instance serves every request. Every key is HS256 only:
 * the algorithm is fixed by the key, never taken from a token. A key being rotated out can be given
 * an instant after which it is no longer accepted, so the overlap window ends on its own.
 */
public final class TokenKeys {

  private static final Logger log = LoggerFactory.getLogger(TokenKeys.class);

  private final String signingKid;
  private final MACSigner signer;
  private final Map<String, MACVerifier> verifiers;
  private final Map<String, Instant> acceptUntil;
  private final Clock clock;

  /**
   * Keys that are accepted for as long as they are listed.
   *
   * @param signingKid the kid new tokens are signed with; one of {@code secrets}
   * @param secrets every accepted key by kid, each at least {@value TokenProperties#MIN_KEY_BYTES}
   *     bytes
   */
  public TokenKeys(String signingKid, Map<String, byte[]> secrets) {
    this(signingKid, secrets, Map.of(), Clock.systemUTC());
  }

  /**
   * @param signingKid the kid new tokens are signed with; one of {@code secrets}
   * @param secrets every accepted key by kid, each at least {@value TokenProperties#MIN_KEY_BYTES}
   *     bytes
   * @param acceptUntil for keys being rotated out, the instant from which tokens they signed are
   *     refused; never the signing key
   * @param clock the time {@code acceptUntil} is compared with
   */
  public TokenKeys(
      String signingKid,
      Map<String, byte[]> secrets,
      Map<String, Instant> acceptUntil,
      Clock clock) {
    if (!secrets.containsKey(signingKid)) {
      throw new IllegalArgumentException(
          "signing key '" + signingKid + "' is not one of " + secrets.keySet());
    }
    if (acceptUntil.containsKey(signingKid)
        || !secrets.keySet().containsAll(acceptUntil.keySet())) {
      throw new IllegalArgumentException(
          "accept-until must name keys other than the signing key '"
              + signingKid
              + "', was "
              + acceptUntil.keySet());
    }
    Map<String, MACVerifier> built = new HashMap<>();
    secrets.forEach((kid, secret) -> built.put(kid, verifier(kid, secret)));
    this.signingKid = signingKid;
    this.signer = signer(signingKid, secrets.get(signingKid));
    this.verifiers = Map.copyOf(built);
    this.acceptUntil = Map.copyOf(acceptUntil);
    this.clock = clock;
  }

  /**
   * The configured keys, or a generated development key (with a warning) when the properties ask
   * for one.
   */
  public static TokenKeys from(TokenProperties properties, Clock clock) {
    Map<String, byte[]> secrets = properties.secrets();
    if (secrets.isEmpty()) {
      log.warn(
          "anteroom.tokens: no keys configured, signing with a generated development key (kid {});"
              + " passes will not survive a restart nor work across several gateways."
              + " Set ANTEROOM_TOKEN_KEY for production",
          TokenProperties.DEV_KID);
      byte[] secret = new byte[TokenProperties.MIN_KEY_BYTES];
      new SecureRandom().nextBytes(secret);
      secrets = Map.of(TokenProperties.DEV_KID, secret);
    }
    return new TokenKeys(properties.signingKey(), secrets, properties.acceptUntilInstants(), clock);
  }

  /** The kid new tokens carry. */
  public String signingKid() {
    return signingKid;
  }

  /** Every kid accepted when verifying. */
  public Set<String> kids() {
    return verifiers.keySet();
  }

  MACSigner signer() {
    return signer;
  }

  /**
   * The verifier for {@code kid}, or null when the kid is absent, unknown, or of a key past its
   * accept-until instant.
   */
  MACVerifier verifier(String kid) {
    // Map.copyOf rejects null lookups, and a token may carry no kid.
    if (kid == null) {
      return null;
    }
    Instant until = acceptUntil.get(kid);
    if (until != null && !clock.instant().isBefore(until)) {
      return null;
    }
    return verifiers.get(kid);
  }

  private static MACSigner signer(String kid, byte[] secret) {
    try {
      return new MACSigner(secret);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("key '" + kid + "': " + e.getMessage(), e);
    }
  }

  private static MACVerifier verifier(String kid, byte[] secret) {
    try {
      return new MACVerifier(secret);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("key '" + kid + "': " + e.getMessage(), e);
    }
  }
}
