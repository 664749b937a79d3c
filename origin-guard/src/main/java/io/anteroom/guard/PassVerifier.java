package io.anteroom.guard;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.util.Map;
import java.util.Set;

/**
 * Checks the passes an Anteroom gateway forwards to its origin: signed by a key of the gateway's
 * JWK set with an accepted algorithm, a pass ({@code typ} {@code anteroom-pass+jwt}) of the
 * expected issuer, not expired, for the room, and naming the item with an end not yet passed.
 * Rotated keys reach it without a restart: a pass naming a kid the cached set lacks has the set
 * fetched again, at most twice per {@link PassVerifierBuilder#refreshMinInterval} interval, and the
 * cached set is fetched again after its time to live, so a removed key stops being accepted.
 *
 * <p>Thread-safe: build one when the origin starts and share it. Never throws on a bad pass; the
 * result says why it was refused. Build it with {@link #builder()}.
 */
public final class PassVerifier {

  /** {@code typ} of a pass. */
  public static final String PASS_TYPE = "anteroom-pass+jwt";

  /** The item of a room that queues everyone in one line. */
  public static final String ROOM_WIDE = "_";

  /** Longer than any pass a gateway issues, and than any cookie a browser keeps. */
  static final int MAX_LENGTH = 4096;

  private static final JOSEObjectType PASS = new JOSEObjectType(PASS_TYPE);

  private final PassKeys keys;
  private final Set<JWSAlgorithm> algorithms;
  private final PassClaims claims;

  PassVerifier(PassKeys keys, Set<JWSAlgorithm> algorithms, PassClaims claims) {
    this.keys = keys;
    this.algorithms = Set.copyOf(algorithms);
    this.claims = claims;
  }

  /** A builder: the JWK set's URL (or a fixed set) is required, the rest has defaults. */
  public static PassVerifierBuilder builder() {
    return new PassVerifierBuilder();
  }

  /**
   * Whether {@code token} lets its holder into {@code item} of {@code room}.
   *
   * @param token the pass as the request carries it; null or empty when it carries none
   * @param room the room, as the gateway's configuration names it
   * @param item the item id as the request names it (the gateway's {@code {id}}), or {@link
   *     #ROOM_WIDE} for a room with one line; ids outside {@code [A-Za-z0-9._-]{1,64}} are hashed
   *     as the gateway does
   */
  public PassCheck verify(String token, String room, String item) {
    if (token == null || token.isEmpty()) {
      return PassCheck.refused(Refusal.MISSING);
    }
    if (token.length() > MAX_LENGTH) {
      return PassCheck.refused(Refusal.MALFORMED);
    }
    String wanted = ItemIds.normalise(item);
    if (room == null || wanted == null) {
      throw new IllegalArgumentException("a room and an item are required");
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) {
      return PassCheck.refused(unparsable(token));
    }
    Refusal problem = header(jwt.getHeader());
    if (problem == null) {
      problem = keys.check(jwt.getHeader(), jwt.getSigningInput(), jwt.getSignature());
    }
    if (problem != null) {
      return PassCheck.refused(problem);
    }
    JWTClaimsSet read;
    try {
      read = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      return PassCheck.refused(Refusal.MALFORMED);
    }
    return claims.check(read, room, wanted);
  }

  private Refusal header(JWSHeader header) {
    if (!algorithms.contains(header.getAlgorithm())
        || header.getJWKURL() != null
        || header.getJWK() != null
        || header.getX509CertURL() != null
        || header.getX509CertChain() != null
        || header.getCriticalParams() != null
        || !header.isBase64URLEncodePayload()) {
      return Refusal.ALGORITHM;
    }
    return PASS.equals(header.getType()) ? null : Refusal.TYPE;
  }

  /**
   * Nimbus refuses {@code alg: none} while parsing: look at the raw header so that counts as an
   * algorithm attack rather than noise.
   */
  private Refusal unparsable(String token) {
    int dot = token.indexOf('.');
    if (dot <= 0) {
      return Refusal.MALFORMED;
    }
    try {
      Map<String, Object> header =
          JSONObjectUtils.parse(new Base64URL(token.substring(0, dot)).decodeToString());
      if (header.get("alg") instanceof String alg
          && !algorithms.contains(JWSAlgorithm.parse(alg))) {
        return Refusal.ALGORITHM;
      }
    } catch (ParseException | RuntimeException e) {
      // Not even a JSON header.
    }
    return Refusal.MALFORMED;
  }
}
