package io.anteroom.gateway.token;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How passes are signed and which asymmetric pass keys are accepted, built once. With HS256 passes
 * there are no pass keys: passes are signed and read with {@link TokenKeys}, and the JWKS is empty.
 * With Ed25519 or ES256, a pass must carry the configured algorithm and a kid of a listed key not
 * past its accept-until instant; the JWKS lists exactly those keys, so an origin that trusts it
 * accepts what a gateway accepts. HS256 passes are then accepted only until {@code
 * hs256-passes-until}, so switching algorithms need not log anyone out.
 */
public final class PassKeys {

  private static final Logger log = LoggerFactory.getLogger(PassKeys.class);

  private final PassSigning signing;
  private final PassKey signingKey;
  private final Map<String, PassKey> keys;
  private final Map<String, Instant> acceptUntil;
  private final Instant hs256PassesUntil;
  private final Clock clock;

  /** The JWKS for the kids last accepted, rebuilt only when that set changes. */
  private volatile Jwks jwks = new Jwks(Set.of(), "{\"keys\":[]}");

  private record Jwks(Set<String> kids, String json) {}

  /**
   * @param signingKid one of {@code keys}
   * @param keys every pass key by kid, all of one asymmetric algorithm
   * @param acceptUntil for keys being rotated out, the instant from which they are refused
   * @param hs256PassesUntil until when HS256 passes are still accepted, or null for never
   */
  PassKeys(
      String signingKid,
      Map<String, PassKey> keys,
      Map<String, Instant> acceptUntil,
      Instant hs256PassesUntil,
      Clock clock) {
    this.signingKey = Objects.requireNonNull(keys.get(signingKid), "signing pass key");
    this.signing = signingKey.signing();
    for (PassKey key : keys.values()) {
      if (key.signing() != signing) {
        throw new IllegalArgumentException("pass key '" + key.kid() + "' is not " + signing);
      }
    }
    if (acceptUntil.containsKey(signingKid) || !keys.keySet().containsAll(acceptUntil.keySet())) {
      throw new IllegalArgumentException(
          "pass-accept-until must name pass keys other than the signing one");
    }
    this.keys = Map.copyOf(keys);
    this.acceptUntil = Map.copyOf(acceptUntil);
    this.hs256PassesUntil = hs256PassesUntil;
    this.clock = clock;
  }

  private PassKeys() {
    this.signing = PassSigning.HS256;
    this.signingKey = null;
    this.keys = Map.of();
    this.acceptUntil = Map.of();
    this.hs256PassesUntil = null;
    this.clock = Clock.systemUTC();
  }

  /** Passes signed with the HS256 key, as tickets are: the default. */
  public static PassKeys hs256() {
    return new PassKeys();
  }

  /**
   * The configured pass keys, or a generated development one (with a warning) when none is
   * configured and {@code generateDevKey} allows it.
   *
   * @param hs256Kids the kids of the HS256 keys, which pass kids must not reuse
   */
  public static PassKeys from(
      PassKeyProperties properties, boolean generateDevKey, Set<String> hs256Kids, Clock clock) {
    PassSigning signing = properties.passSigning();
    if (!signing.asymmetric()) {
      return hs256();
    }
    String signingKid = properties.passSigningKid();
    Map<String, PassKey> keys = new LinkedHashMap<>();
    properties
        .passKeys()
        .forEach((kid, text) -> keys.put(kid, PassKeyText.read(kid, signing, text)));
    if (keys.isEmpty()) {
      if (!generateDevKey) {
        throw new IllegalArgumentException(
            "anteroom.tokens.pass-keys: no "
                + signing
                + " pass key configured for pass-signing "
                + signing.name().toLowerCase(java.util.Locale.ROOT));
      }
      log.warn(
          "anteroom.tokens: no pass keys configured, signing passes with a generated {} development"
              + " key (kid {}); origins must fetch it again after every restart, and passes work on"
              + " one gateway only. Set anteroom.tokens.pass-keys for production",
          signing,
          PassKeyProperties.DEV_KID);
      keys.put(PassKeyProperties.DEV_KID, PassKeyText.generate(PassKeyProperties.DEV_KID, signing));
      signingKid = PassKeyProperties.DEV_KID;
    }
    for (String kid : keys.keySet()) {
      if (hs256Kids.contains(kid)) {
        throw new IllegalArgumentException(
            "anteroom.tokens.pass-keys."
                + kid
                + ": the kid of an HS256 key; give pass keys their own");
      }
    }
    return new PassKeys(
        signingKid,
        keys,
        properties.passAcceptUntilInstants(),
        properties.hs256PassesUntilInstant(),
        clock);
  }

  /** How new passes are signed. */
  public PassSigning signing() {
    return signing;
  }

  /** The kid new passes carry, or null with HS256 passes (they carry the HS256 signing kid). */
  public String signingKid() {
    return signingKey == null ? null : signingKey.kid();
  }

  /** The key new passes are signed with, or null with HS256 passes. */
  PassKey signingKey() {
    return signingKey;
  }

  /** The pass key of {@code kid}, or null when unknown or past its accept-until instant. */
  PassKey key(String kid) {
    if (kid == null) {
      return null;
    }
    Instant until = acceptUntil.get(kid);
    if (until != null && !clock.instant().isBefore(until)) {
      return null;
    }
    return keys.get(kid);
  }

  /** Whether a pass signed with an HS256 key may be accepted now. */
  boolean acceptsHs256Passes() {
    return !signing.asymmetric()
        || (hs256PassesUntil != null && clock.instant().isBefore(hs256PassesUntil));
  }

  /**
   * The JWK Set (RFC 7517) of every pass key accepted now, the signing key first: public halves
   * only, each with {@code kid}, {@code alg} and {@code use: sig}. Empty with HS256 passes.
   */
  public String jwks() {
    Set<String> accepted = new TreeSet<>();
    for (String kid : keys.keySet()) {
      if (key(kid) != null) {
        accepted.add(kid);
      }
    }
    Jwks current = jwks;
    if (current.kids().equals(accepted)) {
      return current.json();
    }
    List<Object> listed = new ArrayList<>();
    listed.add(signingKey.publicJwk());
    for (String kid : accepted) {
      if (!kid.equals(signingKey.kid())) {
        listed.add(keys.get(kid).publicJwk());
      }
    }
    String json = JSONObjectUtils.toJSONString(Map.of("keys", listed));
    jwks = new Jwks(Set.copyOf(accepted), json);
    return json;
  }
}
