package io.anteroom.gateway.token;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.KeySpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.text.ParseException;
import java.util.Base64;
import java.util.Map;

/**
 * A pass key from its configured text: a PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}, as {@code
 * openssl genpkey -algorithm ed25519} writes) or a private JWK ({@code {"kty":"OKP",
 * "crv":"Ed25519","d":…}} or {@code {"kty":"EC","crv":"P-256","d":…}}). The public half is derived
 * from the private one; a JWK's own {@code x}/{@code y}, when given, must match it. Error messages
 * name the kid and never the key.
 */
final class PassKeyText {

  private static final String PEM_START = "-----BEGIN PRIVATE KEY-----";
  private static final String PEM_END = "-----END PRIVATE KEY-----";

  private PassKeyText() {}

  /**
   * @throws IllegalArgumentException when {@code text} is neither form, or not a key of {@code
   *     signing}
   */
  static PassKey read(String kid, PassSigning signing, String text) {
    String trimmed = text.trim();
    PrivateKey privateKey;
    try {
      privateKey = trimmed.startsWith("{") ? fromJwk(signing, trimmed) : fromPem(signing, trimmed);
    } catch (GeneralSecurityException | ParseException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "anteroom.tokens.pass-keys."
              + kid
              + ": not a "
              + signing
              + " private key ("
              + why(e)
              + "); give a PKCS#8 PEM or a private JWK",
          e);
    }
    PassKey key = new PassKey(kid, signing, privateKey, PublicHalves.of(privateKey));
    if (trimmed.startsWith("{")) {
      requireOwnPublicHalf(kid, key, trimmed);
    }
    return key;
  }

  /** A random key, for development only. */
  static PassKey generate(String kid, PassSigning signing) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(signing.keyAlgorithm());
      if (signing == PassSigning.ES256) {
        generator.initialize(new ECGenParameterSpec("secp256r1"));
      }
      KeyPair pair = generator.generateKeyPair();
      return new PassKey(kid, signing, pair.getPrivate(), pair.getPublic());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(signing + " keys are part of every JDK 17", e);
    }
  }

  private static PrivateKey fromPem(PassSigning signing, String pem)
      throws GeneralSecurityException {
    int start = pem.indexOf(PEM_START);
    int end = pem.indexOf(PEM_END);
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "no " + PEM_START + " block (convert others with: openssl pkcs8 -topk8 -nocrypt)");
    }
    byte[] der =
        Base64.getMimeDecoder().decode(pem.substring(start + PEM_START.length(), end).trim());
    PrivateKey key =
        KeyFactory.getInstance(signing.keyAlgorithm())
            .generatePrivate(new PKCS8EncodedKeySpec(der));
    if (key instanceof ECPrivateKey ec && !isP256(ec.getParams())) {
      throw new IllegalArgumentException("an EC key of another curve than P-256");
    }
    return key;
  }

  private static PrivateKey fromJwk(PassSigning signing, String json)
      throws GeneralSecurityException, ParseException {
    Map<String, Object> jwk = JSONObjectUtils.parse(json);
    String kty = signing == PassSigning.ED25519 ? "OKP" : "EC";
    String crv = signing == PassSigning.ED25519 ? "Ed25519" : "P-256";
    if (!kty.equals(jwk.get("kty")) || !crv.equals(jwk.get("crv"))) {
      throw new IllegalArgumentException("a JWK of kty " + kty + " and crv " + crv + " expected");
    }
    byte[] d = Base64.getUrlDecoder().decode(JSONObjectUtils.getString(jwk, "d"));
    KeySpec spec =
        signing == PassSigning.ED25519
            ? new EdECPrivateKeySpec(NamedParameterSpec.ED25519, d)
            : new ECPrivateKeySpec(new BigInteger(1, d), p256());
    return KeyFactory.getInstance(signing.keyAlgorithm()).generatePrivate(spec);
  }

  private static void requireOwnPublicHalf(String kid, PassKey key, String json) {
    Map<String, Object> given;
    try {
      given = JSONObjectUtils.parse(json);
    } catch (ParseException e) {
      throw new IllegalArgumentException("anteroom.tokens.pass-keys." + kid + ": not JSON", e);
    }
    Map<String, Object> derived = key.publicJwk();
    for (String coordinate : new String[] {"x", "y"}) {
      if (given.containsKey(coordinate) && !given.get(coordinate).equals(derived.get(coordinate))) {
        throw new IllegalArgumentException(
            "anteroom.tokens.pass-keys."
                + kid
                + ": '"
                + coordinate
                + "' is not of this private key");
      }
    }
  }

  static ECParameterSpec p256() throws GeneralSecurityException {
    AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
    parameters.init(new ECGenParameterSpec("secp256r1"));
    return parameters.getParameterSpec(ECParameterSpec.class);
  }

  private static boolean isP256(ECParameterSpec params) throws GeneralSecurityException {
    ECParameterSpec p256 = p256();
    return params.getOrder().equals(p256.getOrder())
        && params.getCurve().equals(p256.getCurve())
        && params.getGenerator().equals(p256.getGenerator());
  }

  private static String why(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
