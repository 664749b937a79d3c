package io.anteroom.gateway.token;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One asymmetric pass key: its kid, its algorithm and both halves. Signing and verifying use a JDK
 * {@link Signature} per thread, initialised once, so one instance serves every request. Only {@link
 * #publicJwk()} ever leaves the gateway.
 */
final class PassKey {

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final String kid;
  private final PassSigning signing;
  private final PublicKey publicKey;
  private final ThreadLocal<Signature> signers;
  private final ThreadLocal<Signature> verifiers;

  /**
   * @param signing an asymmetric algorithm
   * @throws IllegalArgumentException when the two halves do not make a pair of that algorithm
   */
  PassKey(String kid, PassSigning signing, PrivateKey privateKey, PublicKey publicKey) {
    if (!signing.asymmetric()) {
      throw new IllegalArgumentException("pass key '" + kid + "': HS256 keys are secrets");
    }
    this.kid = Objects.requireNonNull(kid, "kid");
    this.signing = signing;
    this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
    this.signers = ThreadLocal.withInitial(() -> signer(signing, privateKey));
    this.verifiers = ThreadLocal.withInitial(() -> verifier(signing, publicKey));
    byte[] probe = ("pair check of " + kid).getBytes(StandardCharsets.UTF_8);
    if (!verifies(probe, probe.length, sign(probe))) {
      throw new IllegalArgumentException(
          "pass key '" + kid + "': the public key does not match the private key");
    }
  }

  String kid() {
    return kid;
  }

  PassSigning signing() {
    return signing;
  }

  /** The JWS signature of {@code input}, the ASCII of {@code header.payload}. */
  byte[] sign(byte[] input) {
    try {
      Signature signer = signers.get();
      signer.update(input);
      return signer.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(signing + " signing failed with pass key " + kid, e);
    }
  }

  /** Whether {@code signature} is this key's over the first {@code length} bytes of input. */
  boolean verifies(byte[] input, int length, byte[] signature) {
    Signature verifier = verifiers.get();
    try {
      verifier.update(input, 0, length);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      // A malformed signature throws, and may leave the verifier mid-update: start afresh.
      verifiers.remove();
      return false;
    }
  }

  /** The public half as a JWK (RFC 7517, 8037): what an origin needs and nothing more. */
  Map<String, Object> publicJwk() {
    Map<String, Object> jwk = new LinkedHashMap<>();
    if (signing == PassSigning.ED25519) {
      jwk.put("kty", "OKP");
      jwk.put("crv", "Ed25519");
      // The X.509 encoding of an Ed25519 key ends with the 32 bytes of the key itself.
      byte[] encoded = publicKey.getEncoded();
      jwk.put(
          "x",
          BASE64URL.encodeToString(
              Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length)));
    } else {
      ECPublicKey ec = (ECPublicKey) publicKey;
      jwk.put("kty", "EC");
      jwk.put("crv", "P-256");
      jwk.put("x", BASE64URL.encodeToString(unsigned32(ec.getW().getAffineX())));
      jwk.put("y", BASE64URL.encodeToString(unsigned32(ec.getW().getAffineY())));
    }
    jwk.put("kid", kid);
    jwk.put("alg", signing.algorithm().getName());
    jwk.put("use", "sig");
    return jwk;
  }

  /** Names the key, never shows it. */
  @Override
  public String toString() {
    return "PassKey[" + kid + ", " + signing + "]";
  }

  private static byte[] unsigned32(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] fixed = new byte[32];
    int copied = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - copied, fixed, 32 - copied, copied);
    return fixed;
  }

  private static Signature signer(PassSigning signing, PrivateKey key) {
    try {
      Signature signature = Signature.getInstance(signing.signatureAlgorithm());
      signature.initSign(key);
      return signature;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(signing + " private key refused: " + e.getMessage(), e);
    }
  }

  private static Signature verifier(PassSigning signing, PublicKey key) {
    try {
      Signature signature = Signature.getInstance(signing.signatureAlgorithm());
      signature.initVerify(key);
      return signature;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(signing + " public key refused: " + e.getMessage(), e);
    }
  }
}
