package io.anteroom.guard;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Keys made in the test and passes signed with them, as a gateway writes them. */
final class TestPasses {

  static final String ROOM = "shop";
  static final String VISITOR = "0123456789abcdef0123456789abcdef";
  static final Duration LIFETIME = Duration.ofMinutes(5);
  static final JOSEObjectType PASS = new JOSEObjectType(PassVerifier.PASS_TYPE);

  private TestPasses() {}

  /** A private key of the test, and the public JWK a gateway would publish for it. */
  interface Key {
    JWSAlgorithm alg();

    String kid();

    JWK publicJwk();

    Base64URL sign(byte[] signingInput) throws GeneralSecurityException, JOSEException;
  }

  /** An Ed25519 key, signing with the JDK (nimbus's own Ed25519 needs Tink). */
  static Key ed25519(String kid) {
    try {
      KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
      byte[] encoded = pair.getPublic().getEncoded();
      byte[] x = Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length);
      JWK jwk =
          new OctetKeyPair.Builder(Curve.Ed25519, Base64URL.encode(x))
              .keyID(kid)
              .algorithm(JWSAlgorithm.EdDSA)
              .keyUse(KeyUse.SIGNATURE)
              .build();
      return new Key() {
        public JWSAlgorithm alg() {
          return JWSAlgorithm.EdDSA;
        }

        public String kid() {
          return kid;
        }

        public JWK publicJwk() {
          return jwk;
        }

        public Base64URL sign(byte[] input) throws GeneralSecurityException {
          Signature ed25519 = Signature.getInstance("Ed25519");
          ed25519.initSign(pair.getPrivate());
          ed25519.update(input);
          return Base64URL.encode(ed25519.sign());
        }
      };
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A P-256 key. */
  static Key es256(String kid) {
    try {
      ECKey key =
          new ECKeyGenerator(Curve.P_256)
              .keyID(kid)
              .algorithm(JWSAlgorithm.ES256)
              .keyUse(KeyUse.SIGNATURE)
              .generate();
      ECDSASigner signer = new ECDSASigner(key);
      return new Key() {
        public JWSAlgorithm alg() {
          return JWSAlgorithm.ES256;
        }

        public String kid() {
          return kid;
        }

        public JWK publicJwk() {
          return key.toPublicJWK();
        }

        public Base64URL sign(byte[] input) throws JOSEException {
          return signer.sign(new JWSHeader(JWSAlgorithm.ES256), input);
        }
      };
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An HS256 secret; its "public JWK" is none. */
  static Key hs256(String kid, byte[] secret) {
    try {
      MACSigner signer = new MACSigner(secret);
      return new Key() {
        public JWSAlgorithm alg() {
          return JWSAlgorithm.HS256;
        }

        public String kid() {
          return kid;
        }

        public JWK publicJwk() {
          throw new UnsupportedOperationException("an HMAC secret is never published");
        }

        public Base64URL sign(byte[] input) throws JOSEException {
          return signer.sign(new JWSHeader(JWSAlgorithm.HS256), input);
        }
      };
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The JWK set a gateway publishes for {@code keys}. */
  static JWKSet jwks(Key... keys) {
    List<JWK> jwks = new ArrayList<>();
    for (Key key : keys) {
      jwks.add(key.publicJwk());
    }
    return new JWKSet(jwks);
  }

  /** The claims of a pass of {@link #ROOM} to {@code item} ending {@link #LIFETIME} after now. */
  static JWTClaimsSet.Builder claims(Instant now, String item) {
    return claims(now, ROOM, Map.of(item, now.plus(LIFETIME)));
  }

  /** The claims of a pass of {@code room} to each item until its end, as TokenCodec writes it. */
  static JWTClaimsSet.Builder claims(Instant now, String room, Map<String, Instant> items) {
    List<Map<String, Object>> entries = new ArrayList<>();
    long expires = 0;
    for (Map.Entry<String, Instant> item : items.entrySet()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("item", item.getKey());
      entry.put("until", item.getValue().toEpochMilli());
      entry.put("checked", now.toEpochMilli());
      entries.add(entry);
      expires = Math.max(expires, Math.floorDiv(item.getValue().toEpochMilli() + 999, 1000));
    }
    return new JWTClaimsSet.Builder()
        .issuer("anteroom")
        .subject(VISITOR)
        .audience(room)
        .issueTime(Date.from(now))
        .expirationTime(new Date(expires * 1000))
        .jwtID("fedcba9876543210fedcba9876543210")
        .claim("items", entries);
  }

  /** A valid pass of {@link #ROOM} to {@code item}, signed with {@code key}. */
  static String pass(Key key, Instant now, String item) {
    return sign(key, header(key).build(), claims(now, item).build());
  }

  /** The header a gateway signs passes with {@code key} under. */
  static JWSHeader.Builder header(Key key) {
    return new JWSHeader.Builder(key.alg()).type(PASS).keyID(key.kid());
  }

  /** {@code claims} under {@code header}, signed with {@code key}. */
  static String sign(Key key, JWSHeader header, JWTClaimsSet claims) {
    String input = header.toBase64URL() + "." + claims.toPayload().toBase64URL();
    try {
      return input + "." + key.sign(input.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException | JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
