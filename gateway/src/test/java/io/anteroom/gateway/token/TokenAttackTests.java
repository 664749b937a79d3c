package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Forged, tampered and garbage tokens: each is rejected with its reason, none throws. */
class TokenAttackTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec codec = TokenFixtures.codec(clock);
  private final Map<String, Object> claims = TokenFixtures.passClaims(clock);

  @Test
  void unsignedTokenWithAlgNoneIsRejectedForAlgorithm() {
    String token =
        TokenFixtures.encode("{\"alg\":\"none\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"k1\"}")
            + "."
            + TokenFixtures.encode(JSONObjectUtils.toJSONString(claims))
            + ".";

    assertRejected(token, Rejection.ALGORITHM);
  }

  @ParameterizedTest
  @ValueSource(strings = {"HS384", "HS512", "hs256", "RS256", "ES256", "EdDSA", "PS256"})
  void tokenSignedWithOurSecretUnderAnotherAlgIsRejectedForAlgorithm(String alg) {
    String header = "{\"alg\":\"" + alg + "\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"k1\"}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.ALGORITHM);
  }

  @Test
  void tokenSignedWithAWrongSecretIsRejectedForSignature() {
    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, TokenFixtures.K2);

    assertRejected(token, Rejection.SIGNATURE);
  }

  @Test
  void rs256TokenIsRejectedForAlgorithmEvenWithItsPublicKeyEmbedded() throws Exception {
    RSAKey rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
    JWTClaimsSet claimSet = JWTClaimsSet.parse(claims);
    JOSEObjectType pass = new JOSEObjectType(TokenCodec.PASS_TYPE);

    SignedJWT plain =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).type(pass).keyID("k1").build(), claimSet);
    plain.sign(new RSASSASigner(rsa));
    SignedJWT embedded =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .type(pass)
                .keyID("k1")
                .jwk(rsa.toPublicJWK())
                .build(),
            claimSet);
    embedded.sign(new RSASSASigner(rsa));

    assertRejected(plain.serialize(), Rejection.ALGORITHM);
    assertRejected(embedded.serialize(), Rejection.ALGORITHM);
  }

  static Stream<Arguments> keySourceHeaders() {
    return Stream.of(
        arguments("jku", "\"https://attacker.example/jwks.json\""),
        arguments("x5u", "\"https://attacker.example/cert.pem\""),
        arguments("jwk", "{\"kty\":\"oct\",\"k\":\"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE\"}"),
        arguments("x5c", "[\"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\"]"),
        arguments("crit", "[\"exp\"]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keySourceHeaders")
  void headerNamingAKeySourceOrCriticalExtensionIsRejectedForAlgorithm(String name, String value) {
    String header =
        "{\"alg\":\"HS256\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"k1\",\""
            + name
            + "\":"
            + value
            + "}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.ALGORITHM);
  }

  @Test
  void headerWithoutKidIsRejectedForUnknownKey() {
    String header = "{\"alg\":\"HS256\",\"typ\":\"anteroom-pass+jwt\"}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.UNKNOWN_KEY);
  }

  @Test
  void passSignedWithUnknownKidIsRejected() {
    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k9"), claims, K1);

    assertRejected(token, Rejection.UNKNOWN_KEY);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "JWT", "anteroom-ticket+jwt", "application/anteroom-pass+jwt"})
  void headerWithAnotherTypIsRejectedForType(String typ) {
    String header = "{\"alg\":\"HS256\",\"typ\":\"" + typ + "\",\"kid\":\"k1\"}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.TYPE);
  }

  @Test
  void headerWithoutTypIsRejectedForType() {
    String header = "{\"alg\":\"HS256\",\"kid\":\"k1\"}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.TYPE);
  }

  @Test
  void payloadTamperedUnderAValidSignatureIsRejectedForSignature() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);
    String[] parts = token.split("\\.");
    String widened = TokenFixtures.part(token, 1).replace("\"sku-1\"", "\"sku-2\"");

    String tampered = parts[0] + "." + TokenFixtures.encode(widened) + "." + parts[2];

    assertThat(widened).contains("sku-2");
    assertRejected(tampered, Rejection.SIGNATURE);
  }

  @Test
  void headerSwappedUnderAValidSignatureIsRejectedForSignature() {
    String ticket = codec.issueTicket(VISITOR, QueueId.roomWide(ROOM));
    String[] parts = ticket.split("\\.");

    String swapped =
        TokenFixtures.encode(TokenFixtures.passHeader("k1")) + "." + parts[1] + "." + parts[2];

    assertRejected(swapped, Rejection.SIGNATURE);
  }

  static Stream<Arguments> garbage() {
    String valid = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), "{}", K1);
    return Stream.of(
        arguments(null, Rejection.MALFORMED),
        arguments("", Rejection.MALFORMED),
        arguments(" ", Rejection.MALFORMED),
        arguments("a.b", Rejection.MALFORMED),
        arguments("...", Rejection.MALFORMED),
        arguments("a.b.c", Rejection.MALFORMED),
        arguments("a.b.c.d", Rejection.MALFORMED),
        arguments("a.b.c.d.e", Rejection.MALFORMED),
        arguments("a".repeat(10_000), Rejection.MALFORMED),
        arguments("a.".repeat(5_000), Rejection.MALFORMED),
        arguments(valid + "A".repeat(SignedClaimsReader.MAX_LENGTH), Rejection.MALFORMED),
        arguments("!!!.@@@.###", Rejection.MALFORMED),
        arguments("ü.ü.ü", Rejection.MALFORMED),
        arguments(TokenFixtures.encode("[]") + ".e30.", Rejection.MALFORMED),
        arguments(TokenFixtures.encode("42") + ".e30.", Rejection.MALFORMED),
        arguments(TokenFixtures.encode("\"HS256\"") + ".e30.", Rejection.MALFORMED),
        arguments(TokenFixtures.encode("{\"alg\":42}") + ".e30.", Rejection.ALGORITHM),
        arguments(TokenFixtures.encode("{\"alg\":null}") + ".e30.", Rejection.MALFORMED),
        arguments(
            TokenFixtures.encode("{\"alg\":" + "[".repeat(1000) + "]".repeat(1000) + "}") + ".e30.",
            Rejection.MALFORMED),
        arguments(valid.substring(0, valid.lastIndexOf('.') + 1), Rejection.MALFORMED),
        arguments(
            TokenFixtures.encode("{\"alg\":\"RSA-OAEP\",\"enc\":\"A256GCM\"}") + ".a.b.c.d",
            Rejection.ALGORITHM));
  }

  @ParameterizedTest
  @MethodSource("garbage")
  void garbageIsRejectedWithoutThrowing(String token, Rejection reason) {
    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(reason));
    assertThat(codec.readTicket(token, ROOM)).isEqualTo(Verified.rejected(reason));
  }

  @ParameterizedTest
  @ValueSource(strings = {".%%%.AAAA", ".e30.not base64!", ".e30.AAAA", "..AAAA"})
  void passHeaderOverABrokenPayloadOrSignatureIsRejectedForSignature(String rest) {
    String token = TokenFixtures.encode(TokenFixtures.passHeader("k1")) + rest;

    assertRejected(token, Rejection.SIGNATURE);
  }

  @Test
  void randomlyMutatedPassesNeverThrowAndNeverChangeWhatTheyOpen() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);
    Random random = new Random(20260601);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ {}\"";

    for (int i = 0; i < 2_000; i++) {
      StringBuilder mutated = new StringBuilder(token);
      for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
        int at = random.nextInt(mutated.length());
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        switch (random.nextInt(3)) {
          case 0 -> mutated.setCharAt(at, c);
          case 1 -> mutated.insert(at, c);
          default -> mutated.deleteCharAt(at);
        }
      }
      // Only the unused low bits of the signature's last character may change unnoticed.
      if (codec.readPass(mutated.toString(), ROOM) instanceof Verified.Valid<Pass> valid) {
        assertThat(valid.value().items()).containsExactly("sku-1");
        assertThat(valid.value().visitor()).isEqualTo(VISITOR);
      }
    }
  }

  @Test
  void tokenSignedByNimbusWithOurKeyButForeignTypIsRejectedForType() throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).keyID("k1").build(),
            JWTClaimsSet.parse(claims));
    jwt.sign(new MACSigner(K1));

    assertRejected(jwt.serialize(), Rejection.TYPE);
  }

  @Test
  void kidLongerThanSixtyFourCharactersIsRefusedBeforeAnyLookup() {
    String header =
        "{\"alg\":\"HS256\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"" + "k".repeat(65) + "\"}";

    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.UNKNOWN_KEY);
  }

  @Test
  void headerLongerThanTheLimitIsRefusedBeforeItIsParsedEvenWhenSigned() {
    String header =
        "{\"alg\":\"HS256\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"k1\",\"pad\":\""
            + "x".repeat(1000)
            + "\"}";

    assertThat(TokenFixtures.encode(header).length())
        .isGreaterThan(SignedClaimsReader.MAX_HEADER_LENGTH);
    assertRejected(TokenFixtures.hs256(header, claims, K1), Rejection.MALFORMED);
  }

  @ParameterizedTest
  @ValueSource(ints = {10_000, 1_400})
  void deeplyNestedClaimsAreRefusedWithoutOverflowingTheStack(int depth) {
    String nested = "{\"sub\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), nested, K1);

    assertThat(codec.readPass(token, ROOM).isValid()).isFalse();
    assertThat(codec.readTicket(token, ROOM).isValid()).isFalse();
  }

  @Test
  void deeplyNestedHeaderIsRefusedWithoutParsingIt() {
    String header = "{\"alg\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}";

    assertRejected(TokenFixtures.encode(header) + ".e30.AAAA", Rejection.MALFORMED);
  }

  private void assertRejected(String token, Rejection reason) {
    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(reason));
  }
}
