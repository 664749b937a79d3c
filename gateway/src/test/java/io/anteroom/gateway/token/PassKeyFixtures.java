package io.anteroom.gateway.token;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Asymmetric pass keys, their PEM text, and passes signed by hand with them. */
final class PassKeyFixtures {

  private PassKeyFixtures() {}

  static KeyPair ed25519() {
    return pair(PassSigning.ED25519);
  }

  static KeyPair p256() {
    return pair(PassSigning.ES256);
  }

  static KeyPair pair(PassSigning signing) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(signing.keyAlgorithm());
      if (signing == PassSigning.ES256) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The private key as {@code openssl genpkey} writes it: PKCS#8 PEM, 64-character lines. */
  static String pem(PrivateKey key) {
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(key.getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
  }

  static PassKey key(String kid, PassSigning signing, KeyPair pair) {
    return new PassKey(kid, signing, pair.getPrivate(), pair.getPublic());
  }

  /** Pass keys signing with {@code signing}, listing {@code also} too, none with an end. */
  static PassKeys passKeys(PassKey signing, PassKey... also) {
    return passKeys(Map.of(), null, Clock.systemUTC(), signing, also);
  }

  static PassKeys passKeys(
      Map<String, Instant> acceptUntil,
      Instant hs256PassesUntil,
      Clock clock,
      PassKey signing,
      PassKey... also) {
    Map<String, PassKey> keys = new LinkedHashMap<>();
    keys.put(signing.kid(), signing);
    for (PassKey key : also) {
      keys.put(key.kid(), key);
    }
    return new PassKeys(signing.kid(), keys, acceptUntil, hs256PassesUntil, clock);
  }

  /**
   * A codec whose HS256 key is {@link TokenFixtures#K1} (kid k1) and whose passes {@code passKeys}
   * sign.
   */
  static TokenCodec codec(PassKeys passKeys, Clock clock) {
    return new TokenCodec(
        TokenFixtures.k1(),
        passKeys,
        "anteroom",
        clock,
        TokenFixtures.LEEWAY,
        TokenFixtures.TICKET_MAX_AGE);
  }

  /** A compact JWS of exactly these JSON texts, signed with {@code key} by the JDK alone. */
  static String signed(String headerJson, String payloadJson, PassSigning signing, PrivateKey key) {
    String input = TokenFixtures.encode(headerJson) + "." + TokenFixtures.encode(payloadJson);
    try {
      Signature signature = Signature.getInstance(signing.signatureAlgorithm());
      signature.initSign(key);
      signature.update(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String passHeader(String alg, String kid) {
    return "{\"alg\":\"" + alg + "\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"" + kid + "\"}";
  }
}
