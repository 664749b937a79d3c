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
 * how deeply its JSON can nest). The algorithm comes from the key, never from the token: only HS256
 * is accepted, and key-source headers ({@code jku}, {@code jwk}, {@code x5u}, {@code x5c}) are
 * refused rather than ignored.
 *
 * <p>Nearly every token a gateway reads carries one of the few headers it writes itself (signing
 * key, type): such a token is checked against that header as text and its MAC computed with a
 * per-thread {@link Mac}, without parsing the header or building nimbus objects. Anything else, and
 * any token the short way cannot decide alike, is read the full way. The claims of the last few
 * thousand tokens verified the short way are kept by their exact text, so a visitor's next requests
 * with the same pass cost a map lookup, not a MAC and a JSON parse; their times are still checked
 * on every request by the caller.
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

  /** A header this gateway writes, as its base64url text, and the type it declares. */
  private record OwnHeader(JOSEObjectType type, String encoded) {}

  private final TokenKeys keys;
  private final List<OwnHeader> ownHeaders;
  private final ThreadLocal<Mac> macs;
  private final Map<String, Map<String, Object>> verified = new ConcurrentHashMap<>();

  /**
   * @param keys every key accepted
   * @param ownHeaders the headers tokens are signed with, all naming the signing key
   */
  SignedClaimsReader(TokenKeys keys, List<JWSHeader> ownHeaders) {
    this.keys = keys;
    this.ownHeaders =
        ownHeaders.stream()
            .map(header -> new OwnHeader(header.getType(), header.toBase64URL().toString()))
            .toList();
    byte[] secret = keys.signer().getSecret();
    this.macs = ThreadLocal.withInitial(() -> hmacSha256(secret));
  }

  /** The claims of {@code token} if it is a well-signed token of {@code type}. */
  Verified<Map<String, Object>> read(String token, JOSEObjectType type) {
    if (token == null || token.isEmpty() || token.length() > MAX_LENGTH) {
      return Verified.rejected(Rejection.MALFORMED);
    }
    for (OwnHeader own : ownHeaders) {
      if (own.type().equals(type)) {
        Verified<Map<String, Object>> read = readOwn(token, own.encoded());
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
    MACVerifier verifier = keys.verifier(kid);
    if (verifier == null) {
      return Verified.rejected(Rejection.UNKNOWN_KEY);
    }
    if (!verifies(jwt, verifier)) {
      return Verified.rejected(Rejection.SIGNATURE);
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
  private Verified<Map<String, Object>> readOwn(String token, String own) {
    int payloadStart = own.length() + 1;
    if (token.length() <= payloadStart
        || token.charAt(own.length()) != '.'
        || !token.startsWith(own)) {
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
    Mac mac = macs.get();
    mac.update(ascii, 0, signatureStart - 1);
    if (!MessageDigest.isEqual(mac.doFinal(), signature)) {
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

  private static Rejection check(JWSHeader header, JOSEObjectType type) {
    if (!JWSAlgorithm.HS256.equals(header.getAlgorithm())
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

  private static boolean verifies(SignedJWT jwt, MACVerifier verifier) {
    try {
      return jwt.verify(verifier);
    } catch (JOSEException e) {
      return false;
    }
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
