package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jwt.SignedJWT;
import io.anteroom.queue.time.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the JWKS holds: public halves an origin can check passes with, and nothing secret. */
class JwksTests {

  private final MutableClock clock = MutableClock.startingAt2026();

  @Test
  void withHs256PassesTheJwksIsEmpty() {
    assertThat(PassKeys.hs256().jwks()).isEqualTo("{\"keys\":[]}");
  }

  @Test
  void eachKeyCarriesKidAlgAndUseAndNoPrivatePart() throws Exception {
    KeyPair pair = PassKeyFixtures.ed25519();
    PassKeys keys = PassKeyFixtures.passKeys(PassKeyFixtures.key("p1", PassSigning.ED25519, pair));

    JWK jwk = JWKSet.parse(keys.jwks()).getKeyByKeyId("p1");

    assertThat(jwk).isInstanceOf(OctetKeyPair.class);
    assertThat(jwk.getAlgorithm().getName()).isEqualTo("EdDSA");
    assertThat(jwk.getKeyUse().identifier()).isEqualTo("sig");
    assertThat(jwk.isPrivate()).isFalse();
    assertThat(keys.jwks()).doesNotContain("\"d\"");
    String privateBytes =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                ((java.security.interfaces.EdECPrivateKey) pair.getPrivate())
                    .getBytes()
                    .orElseThrow());
    assertThat(keys.jwks()).doesNotContain(privateBytes);
  }

  @Test
  void noHs256SecretEverAppearsInIt() {
    PassKeys keys =
        PassKeyFixtures.passKeys(
            PassKeyFixtures.key("p1", PassSigning.ES256, PassKeyFixtures.p256()));

    String jwks = keys.jwks();

    assertThat(jwks).doesNotContain("\"oct\"").doesNotContain("\"k\"").doesNotContain("\"k1\"");
    assertThat(jwks)
        .doesNotContain(Base64.getUrlEncoder().withoutPadding().encodeToString(TokenFixtures.K1))
        .doesNotContain(Base64.getEncoder().encodeToString(TokenFixtures.K1));
  }

  @Test
  void anOriginChecksAnEd25519PassWithTheListedKeyAlone() throws Exception {
    PassKeys keys =
        PassKeyFixtures.passKeys(
            PassKeyFixtures.key("p1", PassSigning.ED25519, PassKeyFixtures.ed25519()));
    String pass =
        PassKeyFixtures.codec(keys, clock).issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    OctetKeyPair listed = (OctetKeyPair) JWKSet.parse(keys.jwks()).getKeyByKeyId("p1");
    // The X.509 form of an Ed25519 key is a fixed prefix and the 32 bytes of the JWK's x.
    PublicKey publicKey =
        KeyFactory.getInstance("Ed25519")
            .generatePublic(
                new X509EncodedKeySpec(
                    concat(
                        HexFormat.of().parseHex("302a300506032b6570032100"),
                        listed.getX().decode())));
    JWSObject jws = JWSObject.parse(pass);
    Signature verifier = Signature.getInstance("Ed25519");
    verifier.initVerify(publicKey);
    verifier.update(jws.getSigningInput());

    assertThat(jws.getHeader().getAlgorithm().getName()).isEqualTo("EdDSA");
    assertThat(jws.getHeader().getKeyID()).isEqualTo("p1");
    assertThat(verifier.verify(jws.getSignature().decode())).isTrue();
  }

  @Test
  void anOriginChecksAnEs256PassWithNimbusAndTheListedKey() throws Exception {
    PassKeys keys =
        PassKeyFixtures.passKeys(
            PassKeyFixtures.key("p1", PassSigning.ES256, PassKeyFixtures.p256()));
    String pass =
        PassKeyFixtures.codec(keys, clock).issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    ECKey listed = (ECKey) JWKSet.parse(keys.jwks()).getKeyByKeyId("p1");

    SignedJWT jwt = SignedJWT.parse(pass);

    assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
    assertThat(jwt.verify(new ECDSAVerifier(listed))).isTrue();
    assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo(VISITOR);
    assertThat(new String(jwt.getSigningInput(), StandardCharsets.US_ASCII)).startsWith("ey");
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] both = new byte[first.length + second.length];
    System.arraycopy(first, 0, both, 0, first.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }
}
