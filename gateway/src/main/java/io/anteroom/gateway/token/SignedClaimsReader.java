package io.anteroom.gateway.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.text.ParseException;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Reads a compact JWS in the cheap-to-expensive order: size of the token and of its header, header
 * fields, kid, signature, and only then the claims, so an unsigned payload is never parsed and an
 * unsigned header is never longer than {@value #MAX_HEADER_LENGTH} characters (which also bounds
 * how deeply its JSON can nest). The algorithm comes from the configuration, never from the token:
 * tickets and challenges are HS256 only; passes are of the configured {@link PassSigning} only (and
 * HS256 while {@link PassKeys#acceptsHs256Passes}), and a kid is looked up among the keys of the
 * header's algorithm alone, so an HS256 header naming a public key's kid finds no key. Key-source
 * headers ({@code jku}, {@code jwk}, {@code x5u}, {@code x5c}) are refused rather than ignored.
 *
 * <p>Nearly every token a gateway reads carries one of the few headers it writes itself (signing
 * key, type): such a token is checked against that header as text and its signature checked with a
 * per-thread {@link Mac} (or the pass key's per-thread {@code Signature}), without parsing the
 * header or building nimbus objects. Anything else, and any token the short way cannot decide
 * alike, is read the full way. The claims of the last few thousand tokens verified the short way
 * are kept by their exact text, so a visitor's next requests with the same pass cost a map lookup,
 * not a MAC and a JSON parse; their times are still checked on every request by the caller.
 */
final class SignedClaimsReader {

  /** Longer than any token we issue, and than any cookie a browser keeps. */
  static final int MAX_LENGTH = 4096;

  /**
   * Four times the base64 of any header we issue, room for a foreign key to be named and refused.
   */
  static final int MAX_HEADER_LENGTH = 1024;

  /** Header parameters that point at keys other than ours, or ask for extensions. */
  private static final List<String> FORBIDDEN = List.of("jku", "jwk", "x5u", "x5c", "crit");

  private static final Base64.Decoder BASE64URL = Base64.getUrlDecoder();

  /**
   * Most verified tokens kept (about 1 kB each); when full, all are dropped and the cache fills
   * again, so it stays bounded without bookkeeping on every read.
   */
  static final int MAX_VERIFIED = 4096;

  /** Checks a signature over the first {@code length} bytes of {@code input}. */
  private interface SignatureCheck {
    boolean verifies(byte[] input, int length, byte[] signature);
  }

  /** A header this gateway writes, as its base64url text, the type it declares, its check. */
  private record OwnHeader(JOSEObjectType type, String encoded, SignatureCheck check) {}

  private final TokenKeys keys;
  private final PassKeys passKeys;
  private final List<OwnHeader> ownHeaders;
  private final ThreadLocal<Mac> macs;
  private final Map<String, Map<String, Object>> verified = new ConcurrentHashMap<>();

  /**
   * @param keys every key accepted
   * @param ownHeaders the headers tokens are signed with, all naming the signing key
   */
  SignedClaimsReader(TokenKeys keys, List<JWSHeader> ownHeaders) {
    this(keys, PassKeys.hs256(), ownHeaders);
  }

  /**
   * @param keys every HS256 key accepted
   * @param passKeys how passes are signed, and every asymmetric pass key accepted
   * @param ownHeaders the headers tokens are signed with, all naming a signing key
   */
  SignedClaimsReader(TokenKeys keys, PassKeys passKeys, List<JWSHeader> ownHeaders) {
    this.keys = keys;
    this.passKeys = passKeys;
    byte[] secret = keys.signer().getSecret();
    this.macs = ThreadLocal.withInitial(() -> hmacSha256(secret));
    this.ownHeaders =
        ownHeaders.stream()
            .map(
                header ->
                    new OwnHeader(
                        header.getType(),
                        header.toBase64URL().toString(),
                        JWSAlgorithm.HS256.equals(header.getAlgorithm())
                            ? this::macVerifies
                            : passKeys.signingKey()::verifies))
            .toList();
  }

  /** The claims of {@code token} if it is a well-signed token of {@code type}. */
  Verified<Map<String, Object>> read(String token, JOSEObjectType type) {
    if (token == null || token.isEmpty() || token.length() > MAX_LENGTH) {
      return Verified.rejected(Rejection.MALFORMED);
    }
    for (OwnHeader own : ownHeaders) {
      if (own.type().equals(type)) {
        Verified<Map<String, Object>> read = readOwn(token, own);
        if (read != null) {
          return read;
        }
      }
    }
    int headerEnd = token.indexOf('.');
    if (headerEnd <= 0 || headerEnd > MAX_HEADER_LENGTH) {
      return Verified.rejected(Rejection.MALFORMED);
    }
    if (token.indexOf('.', headerEnd + 1) < 0) {
      // Nimbus would throw for want of a second dot; spare building its exception.
      return Verified.rejected(whyUnparsable(token));
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) {
      return Verified.rejected(whyUnparsable(token));
    }
    JWSHeader header = jwt.getHeader();
    Rejection problem = check(header, type);
    if (problem != null) {
      return Verified.rejected(problem);
    }
    String kid = header.getKeyID();
    if (kid == null || kid.length() > TokenProperties.MAX_KID_LENGTH) {
      return Verified.rejected(Rejection.UNKNOWN_KEY);
    }
    Rejection signature =
        JWSAlgorithm.HS256.equals(header.getAlgorithm())
            ? macSignature(jwt, kid)
            : passSignature(jwt, kid);
    if (signature != null) {
      return Verified.rejected(signature);
    }
    Map<String, Object> claims = claims(jwt.getParsedParts()[1].toString());
    return claims == null ? Verified.rejected(Rejection.MALFORMED) : Verified.valid(claims);
  }

  /**
   * What the full read would answer for a token with the header {@code own} (so of the wanted type,
   * signed with the signing key); null when the token has another header, or anything the full read
   * may judge differently: other than three non-empty parts, non-ASCII characters (the MAC input is
   * UTF-8), or a signature the JDK's strict base64url decoder refuses (nimbus's tolerates stray
   * characters).
   */
  private Verified<Map<String, Object>> readOwn(String token, OwnHeader own) {
    int payloadStart = own.encoded().length() + 1;
    if (token.length() <= payloadStart
        || token.charAt(own.encoded().length()) != '.'
        || !token.startsWith(own.encoded())) {
      return null;
    }
    // The same text verified before: same header, payload and signature, so the same claims.
    Map<String, Object> known = verified.get(token);
    if (known != null) {
      return Verified.valid(known);
    }
    int signatureStart = token.indexOf('.', payloadStart) + 1;
    if (signatureStart <= payloadStart + 1
        || signatureStart == token.length()
        || token.indexOf('.', signatureStart) >= 0) {
      return null;
    }
    byte[] ascii = token.getBytes(StandardCharsets.UTF_8);
    if (ascii.length != token.length()) {
      return null;
    }
    byte[] signature;
    try {
      signature = BASE64URL.decode(token.substring(signatureStart));
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (!own.check().verifies(ascii, signatureStart - 1, signature)) {
      return Verified.rejected(Rejection.SIGNATURE);
    }
    Map<String, Object> claims = claims(token.substring(payloadStart, signatureStart - 1));
    if (claims == null) {
      return Verified.rejected(Rejection.MALFORMED);
    }
    claims = Collections.unmodifiableMap(claims);
    if (verified.size() >= MAX_VERIFIED) {
      verified.clear();
    }
    verified.put(token, claims);
    return Verified.valid(claims);
  }

  /**
   * Whether {@code token} carries the header this gateway signs tokens of {@code type} with, so a
   * valid one was signed with the signing key.
   */
  boolean signedWithOwnHeader(String token, JOSEObjectType type) {
    for (OwnHeader own : ownHeaders) {
      if (own.type().equals(type)
          && token.length() > own.encoded().length()
          && token.charAt(own.encoded().length()) == '.'
          && token.startsWith(own.encoded())) {
        return true;
      }
    }
    return false;
  }

  private static Mac hmacSha256(byte[] secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
    }
  }

  /**
   * The payload as a JSON object, or null. Decoded with the JDK, which is several times faster than
   * nimbus's {@code Payload.toJSONObject()} on this path; parsed by the same JSON reader.
   */
  private static Map<String, Object> claims(String payload) {
    try {
      byte[] json = BASE64URL.decode(payload);
      return JSONObjectUtils.parse(new String(json, StandardCharsets.UTF_8));
    } catch (ParseException | IllegalArgumentException e) {
      return null;
    }
  }

  private Rejection check(JWSHeader header, JOSEObjectType type) {
    if (!accepted(header.getAlgorithm(), type)
        || header.getJWKURL() != null
        || header.getJWK() != null
        || header.getX509CertURL() != null
        || header.getX509CertChain() != null
        || header.getCriticalParams() != null
        || !header.isBase64URLEncodePayload()) {
      return Rejection.ALGORITHM;
    }
    if (!type.equals(header.getType())) {
      return Rejection.TYPE;
    }
    return null;
  }

  /**
   * HS256 for every type (passes only while accepted), or the pass signing algorithm for passes.
   */
  private boolean accepted(JWSAlgorithm algorithm, JOSEObjectType type) {
    boolean pass = TokenCodec.PASS_TYPE.equals(type.getType());
    if (JWSAlgorithm.HS256.equals(algorithm)) {
      return !pass || passKeys.acceptsHs256Passes();
    }
    return pass
        && passKeys.signing().asymmetric()
        && passKeys.signing().algorithm().equals(algorithm);
  }

  private boolean macVerifies(byte[] input, int length, byte[] signature) {
    Mac mac = macs.get();
    mac.update(input, 0, length);
    return MessageDigest.isEqual(mac.doFinal(), signature);
  }

  /** Null when an accepted HS256 key of {@code kid} signed {@code jwt}, else why not. */
  private Rejection macSignature(SignedJWT jwt, String kid) {
    MACVerifier verifier = keys.verifier(kid);
    if (verifier == null) {
      return Rejection.UNKNOWN_KEY;
    }
    try {
      return jwt.verify(verifier) ? null : Rejection.SIGNATURE;
    } catch (JOSEException e) {
      return Rejection.SIGNATURE;
    }
  }

  /** Null when an accepted pass key of {@code kid} signed {@code jwt}, else why not. */
  private Rejection passSignature(SignedJWT jwt, String kid) {
    PassKey key = passKeys.key(kid);
    if (key == null) {
      return Rejection.UNKNOWN_KEY;
    }
    byte[] input = jwt.getSigningInput();
    return key.verifies(input, input.length, jwt.getSignature().decode())
        ? null
        : Rejection.SIGNATURE;
  }

  /**
   * Nimbus refuses {@code alg: none} and some embedded keys while parsing; look at the raw header
   * so those count as algorithm attacks rather than noise.
   */
  private static Rejection whyUnparsable(String token) {
    int dot = token.indexOf('.');
    if (dot <= 0) {
      return Rejection.MALFORMED;
    }
    try {
      Map<String, Object> header =
          JSONObjectUtils.parse(new Base64URL(token.substring(0, dot)).decodeToString());
      Object alg = header.get("alg");
      if (alg != null && !JWSAlgorithm.HS256.getName().equals(alg)) {
        return Rejection.ALGORITHM;
      }
      for (String name : FORBIDDEN) {
        if (header.containsKey(name)) {
          return Rejection.ALGORITHM;
        }
      }
    } catch (ParseException | RuntimeException e) {
      // Not even a JSON header.
    }
    return Rejection.MALFORMED;
  }
}
