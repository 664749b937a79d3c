package io.anteroom.guard;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Base64URL;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The keys a pass is checked with: the gateway's JWK set (remote and cached, or fixed), and an HMAC
 * secret only when one was given. The token names the algorithm and the kid, but the key must be of
 * the type and curve the algorithm needs, for signing ({@code use} absent or {@code sig}), and of
 * that algorithm when it names one; an HS256 pass is checked with the given secret alone, never
 * with a key of the set, so a pass MACed with a public key's bytes is refused. Ed25519 is checked
 * with the JDK's own implementation, so no further library is needed.
 */
final class PassKeys {

  /** Most keys whose verifiers are kept; a gateway's set lists a handful. */
  private static final int MAX_VERIFIERS = 64;

  private static final System.Logger log = System.getLogger(PassKeys.class.getName());

  /** At most one warning about an unreachable key set per this many milliseconds. */
  private static final long WARN_EVERY_MILLIS = 60_000;

  private final JWKSource<SecurityContext> keys;
  private final MACVerifier secret;
  private final Map<JWK, SignatureCheck> checks = new ConcurrentHashMap<>();
  private final AtomicLong lastWarning = new AtomicLong(Long.MIN_VALUE / 2);

  /**
   * @param keys the gateway's key set
   * @param secret the HS256 verifier, or null when HS256 is not accepted
   */
  PassKeys(JWKSource<SecurityContext> keys, MACVerifier secret) {
    this.keys = keys;
    this.secret = secret;
  }

  /**
   * Null when the signature of a token with {@code header} over {@code signingInput} verifies, else
   * why not. The header's algorithm is one the verifier accepts.
   */
  Refusal check(JWSHeader header, byte[] signingInput, Base64URL signature) {
    JWSAlgorithm alg = header.getAlgorithm();
    if (JWSAlgorithm.Family.HMAC_SHA.contains(alg)) {
      return secret != null && macVerifies(header, signingInput, signature)
          ? null
          : Refusal.SIGNATURE;
    }
    String kid = header.getKeyID();
    if (kid == null) {
      return Refusal.UNKNOWN_KEY;
    }
    List<JWK> candidates;
    try {
      candidates = keys.get(new JWKSelector(matcher(alg, kid)), null);
    } catch (RateLimitReachedException e) {
      // The set was fetched again lately and still lacked the kid.
      return Refusal.UNKNOWN_KEY;
    } catch (KeySourceException e) {
      warnUnavailable(e);
      return Refusal.KEYS_UNAVAILABLE;
    }
    if (candidates.isEmpty()) {
      return Refusal.UNKNOWN_KEY;
    }
    for (JWK key : candidates) {
      SignatureCheck check = checkFor(key);
      if (check != null && check.verifiesQuietly(header, signingInput, signature)) {
        return null;
      }
    }
    return Refusal.SIGNATURE;
  }

  /** Every pass is refused meanwhile: worth a warning, but not one per request. */
  private void warnUnavailable(KeySourceException e) {
    long now = System.nanoTime() / 1_000_000;
    long last = lastWarning.get();
    if (now - last >= WARN_EVERY_MILLIS && lastWarning.compareAndSet(last, now)) {
      log.log(
          System.Logger.Level.WARNING,
          "anteroom guard: the gateway's key set cannot be fetched, every pass is refused: {0}",
          e.getMessage());
    }
  }

  private boolean macVerifies(JWSHeader header, byte[] signingInput, Base64URL signature) {
    try {
      return secret.verify(header, signingInput, signature);
    } catch (JOSEException e) {
      return false;
    }
  }

  private static JWKMatcher matcher(JWSAlgorithm alg, String kid) {
    JWKMatcher.Builder matcher =
        new JWKMatcher.Builder().keyID(kid).keyUses(KeyUse.SIGNATURE, null);
    if (JWSAlgorithm.Family.ED.contains(alg)) {
      // EdDSA (RFC 8037) and Ed25519 (RFC 9864) name the same signatures over Ed25519 keys.
      matcher
          .keyType(KeyType.OKP)
          .curve(Curve.Ed25519)
          .algorithms(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519, null);
    } else if (JWSAlgorithm.Family.EC.contains(alg)) {
      matcher.keyType(KeyType.EC).curves(Curve.forJWSAlgorithm(alg)).algorithms(alg, null);
    } else {
      matcher.keyType(KeyType.RSA).algorithms(alg, null);
    }
    return matcher.build();
  }

  private SignatureCheck checkFor(JWK key) {
    SignatureCheck known = checks.get(key);
    if (known != null) {
      return known;
    }
    SignatureCheck built = build(key);
    if (built != null) {
      if (checks.size() >= MAX_VERIFIERS) {
        checks.clear();
      }
      checks.put(key, built);
    }
    return built;
  }

  /** A check for {@code key}, or null for a key that cannot check anything (a bad point). */
  private static SignatureCheck build(JWK key) {
    try {
      if (key instanceof OctetKeyPair okp) {
        return Ed25519Check.of(okp.getDecodedX());
      }
      if (key instanceof ECKey ec) {
        ECDSAVerifier verifier = new ECDSAVerifier(ec.toECPublicKey());
        return verifier::verify;
      }
      RSASSAVerifier verifier = new RSASSAVerifier(((RSAKey) key).toRSAPublicKey());
      return verifier::verify;
    } catch (JOSEException | RuntimeException e) {
      return null;
    }
  }

  /** One key's signature check. */
  @FunctionalInterface
  interface SignatureCheck {
    boolean verifies(JWSHeader header, byte[] signingInput, Base64URL signature)
        throws JOSEException;

    /** False, rather than an exception, for any signature that does not verify. */
    default boolean verifiesQuietly(JWSHeader header, byte[] signingInput, Base64URL signature) {
      try {
        return verifies(header, signingInput, signature);
      } catch (JOSEException | RuntimeException e) {
        return false;
      }
    }
  }
}
