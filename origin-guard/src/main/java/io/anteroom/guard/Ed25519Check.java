package io.anteroom.guard;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;

/**
 * Checks an Ed25519 signature (JWS {@code EdDSA} or {@code Ed25519}) with the JDK, which has had
 * Ed25519 since Java 15: nimbus's own verifier needs Google Tink on the class path.
 */
final class Ed25519Check implements PassKeys.SignatureCheck {

  /** The X.509 SubjectPublicKeyInfo of an Ed25519 key up to its 32 raw bytes (RFC 8410). */
  private static final byte[] X509_PREFIX = {
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00
  };

  private static final int KEY_BYTES = 32;
  private static final int SIGNATURE_BYTES = 64;

  private final PublicKey key;

  private Ed25519Check(PublicKey key) {
    this.key = key;
  }

  /**
   * A check with the raw public key {@code x} of an OKP JWK.
   *
   * @throws IllegalArgumentException when {@code x} is not an Ed25519 public key
   */
  static Ed25519Check of(byte[] x) {
    if (x == null || x.length != KEY_BYTES) {
      throw new IllegalArgumentException("an Ed25519 public key is 32 bytes");
    }
    byte[] encoded = new byte[X509_PREFIX.length + KEY_BYTES];
    System.arraycopy(X509_PREFIX, 0, encoded, 0, X509_PREFIX.length);
    System.arraycopy(x, 0, encoded, X509_PREFIX.length, KEY_BYTES);
    try {
      return new Ed25519Check(
          KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded)));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 public key", e);
    }
  }

  @Override
  public boolean verifies(JWSHeader header, byte[] signingInput, Base64URL signature) {
    byte[] bytes = signature.decode();
    if (bytes.length != SIGNATURE_BYTES) {
      return false;
    }
    try {
      // A Signature is not thread-safe, and one costs little next to the check itself.
      Signature ed25519 = Signature.getInstance("Ed25519");
      ed25519.initVerify(key);
      ed25519.update(signingInput);
      return ed25519.verify(bytes);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
