package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pass keys as operators configure them: PKCS#8 PEM (as {@code openssl genpkey} writes) or a
 * private JWK, the public half derived; anything else refused with the kid named and the key not
 * shown.
 */
class PassKeyTextTests {

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  @ParameterizedTest
  @EnumSource(
      value = PassSigning.class,
      names = {"ED25519", "ES256"})
  void pemKeyGivesThePublicHalfOfItsPair(PassSigning signing) {
    KeyPair pair = PassKeyFixtures.pair(signing);

    PassKey read = PassKeyText.read("p1", signing, PassKeyFixtures.pem(pair.getPrivate()));

    assertThat(read.publicJwk()).isEqualTo(PassKeyFixtures.key("p1", signing, pair).publicJwk());
  }

  @Test
  void ed25519JwkWithItsOwnXIsRead() {
    KeyPair pair = PassKeyFixtures.ed25519();
    Map<String, Object> publicJwk =
        PassKeyFixtures.key("p1", PassSigning.ED25519, pair).publicJwk();
    String d =
        BASE64URL.encodeToString(((EdECPrivateKey) pair.getPrivate()).getBytes().orElseThrow());
    String jwk =
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\""
            + d
            + "\",\"x\":\""
            + publicJwk.get("x")
            + "\"}";

    assertThat(PassKeyText.read("p1", PassSigning.ED25519, jwk).publicJwk()).isEqualTo(publicJwk);
  }

  @Test
  void p256JwkWithoutItsPublicCoordinatesIsRead() {
    KeyPair pair = PassKeyFixtures.p256();
    String d = BASE64URL.encodeToString(unsigned32(((ECPrivateKey) pair.getPrivate()).getS()));

    PassKey read =
        PassKeyText.read(
            "p1", PassSigning.ES256, "{\"kty\":\"EC\",\"crv\":\"P-256\",\"d\":\"" + d + "\"}");

    assertThat(read.publicJwk())
        .isEqualTo(PassKeyFixtures.key("p1", PassSigning.ES256, pair).publicJwk());
  }

  @Test
  void jwkWhoseXIsOfAnotherKeyIsRefused() {
    KeyPair pair = PassKeyFixtures.ed25519();
    String d =
        BASE64URL.encodeToString(((EdECPrivateKey) pair.getPrivate()).getBytes().orElseThrow());
    Object otherX =
        PassKeyFixtures.key("p9", PassSigning.ED25519, PassKeyFixtures.ed25519())
            .publicJwk()
            .get("x");

    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                PassKeyText.read(
                    "p1",
                    PassSigning.ED25519,
                    "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\""
                        + d
                        + "\",\"x\":\""
                        + otherX
                        + "\"}"))
        .withMessageContaining("pass-keys.p1")
        .withMessageContaining("'x'");
  }

  @Test
  void keyOfTheOtherAlgorithmIsRefusedWithoutShowingIt() {
    String pem = PassKeyFixtures.pem(PassKeyFixtures.ed25519().getPrivate());

    assertThatIllegalArgumentException()
        .isThrownBy(() -> PassKeyText.read("p1", PassSigning.ES256, pem))
        .withMessageContaining("anteroom.tokens.pass-keys.p1")
        .withMessageNotContaining(pem.split("\n")[1]);
  }

  @Test
  void ecKeyOfAnotherCurveIsRefused() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp384r1"));
    String pem = PassKeyFixtures.pem(generator.generateKeyPair().getPrivate());

    assertThatIllegalArgumentException()
        .isThrownBy(() -> PassKeyText.read("p1", PassSigning.ES256, pem))
        .withMessageContaining("P-256");
  }

  @Test
  void textThatIsNoKeyIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> PassKeyText.read("p1", PassSigning.ED25519, "not a key"))
        .withMessageContaining("PKCS#8 PEM or a private JWK");
  }

  @ParameterizedTest
  @EnumSource(
      value = PassSigning.class,
      names = {"ED25519", "ES256"})
  void generatedKeySignsWhatItsPublicHalfVerifies(PassSigning signing) {
    PassKey key = PassKeyText.generate("dev-pass", signing);
    byte[] input = "header.payload".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    assertThat(key.verifies(input, input.length, key.sign(input))).isTrue();
    assertThat(key.verifies(input, input.length, new byte[64])).isFalse();
    assertThat(key.verifies(input, input.length, new byte[3])).isFalse();
  }

  private static byte[] unsigned32(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] fixed = new byte[32];
    int copied = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - copied, fixed, 32 - copied, copied);
    return fixed;
  }
}
