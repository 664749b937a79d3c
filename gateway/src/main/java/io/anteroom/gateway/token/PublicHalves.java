package io.anteroom.gateway.token;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.NamedParameterSpec;

/**
 * The public half of a pass key from its private half, so an operator configures one value per kid
 * (a PKCS#8 PEM from {@code openssl genpkey} holds no public key). The JDK has no public call for
 * this: an Ed25519 public key is had by generating a pair from the private key's own 32 bytes, a
 * P-256 one by multiplying the curve's generator by the private scalar. Both run once, at start;
 * {@link PassKey} checks the result signs and verifies as a pair.
 */
final class PublicHalves {

  private PublicHalves() {}

  /** The public key of {@code privateKey}, an Ed25519 or EC P-256 key. */
  static PublicKey of(PrivateKey privateKey) {
    try {
      if (privateKey instanceof EdECPrivateKey ed) {
        byte[] seed =
            ed.getBytes()
                .orElseThrow(() -> new IllegalArgumentException("Ed25519 key without its bytes"));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(NamedParameterSpec.ED25519, new Seed(seed));
        return generator.generateKeyPair().getPublic();
      }
      if (privateKey instanceof ECPrivateKey ec) {
        ECParameterSpec params = ec.getParams();
        ECPoint w = multiply(params, ec.getS());
        return KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, params));
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "no public key for this private key: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException("not an Ed25519 or EC key: " + privateKey.getAlgorithm());
  }

  /** {@code d·G} by double-and-add in affine coordinates: slow, but only ever run at start. */
  private static ECPoint multiply(ECParameterSpec params, BigInteger d) {
    BigInteger p = ((ECFieldFp) params.getCurve().getField()).getP();
    BigInteger a = params.getCurve().getA();
    ECPoint result = ECPoint.POINT_INFINITY;
    ECPoint addend = params.getGenerator();
    for (int i = 0; i < d.bitLength(); i++) {
      if (d.testBit(i)) {
        result = add(result, addend, p, a);
      }
      addend = add(addend, addend, p, a);
    }
    return result;
  }

  private static ECPoint add(ECPoint first, ECPoint second, BigInteger p, BigInteger a) {
    if (first.equals(ECPoint.POINT_INFINITY)) {
      return second;
    }
    if (second.equals(ECPoint.POINT_INFINITY)) {
      return first;
    }
    BigInteger x1 = first.getAffineX();
    BigInteger y1 = first.getAffineY();
    BigInteger x2 = second.getAffineX();
    BigInteger y2 = second.getAffineY();
    BigInteger slope;
    if (x1.equals(x2)) {
      if (!y1.equals(y2) || y1.signum() == 0) {
        return ECPoint.POINT_INFINITY;
      }
      slope =
          x1.pow(2).multiply(BigInteger.valueOf(3)).add(a).multiply(y1.shiftLeft(1).modInverse(p));
    } else {
      slope = y2.subtract(y1).multiply(x2.subtract(x1).modInverse(p));
    }
    slope = slope.mod(p);
    BigInteger x3 = slope.pow(2).subtract(x1).subtract(x2).mod(p);
    BigInteger y3 = slope.multiply(x1.subtract(x3)).subtract(y1).mod(p);
    return new ECPoint(x3, y3);
  }

  /** Hands the key generator the private key's bytes instead of random ones. */
  private static final class Seed extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final transient byte[] seed;

    Seed(byte[] seed) {
      this.seed = seed.clone();
    }

    @Override
    public void nextBytes(byte[] bytes) {
      if (bytes.length != seed.length) {
        throw new IllegalStateException("the generator asked for " + bytes.length + " bytes");
      }
      System.arraycopy(seed, 0, bytes, 0, seed.length);
    }
  }
}
