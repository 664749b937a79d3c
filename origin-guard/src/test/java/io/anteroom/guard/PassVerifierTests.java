package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.LIFETIME;
import static io.anteroom.guard.TestPasses.ROOM;
import static io.anteroom.guard.TestPasses.VISITOR;
import static io.anteroom.guard.TestPasses.claims;
import static io.anteroom.guard.TestPasses.header;
import static io.anteroom.guard.TestPasses.pass;
import static io.anteroom.guard.TestPasses.sign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.util.Base64URL;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PassVerifierTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final Instant now = clock.instant();
  private final TestPasses.Key ed = TestPasses.ed25519("ed-1");
  private final TestPasses.Key ec = TestPasses.es256("ec-1");
  private final PassVerifier verifier =
      PassVerifier.builder().jwkSet(TestPasses.jwks(ed, ec)).clock(clock).build();

  @Test
  void acceptsAPassOfTheRoomForTheItemSignedWithEd25519OrEs256() {
    PassCheck check = verifier.verify(pass(ed, now, "7"), ROOM, "7");

    assertThat(check.isAccepted()).isTrue();
    assertThat(check.visitor()).isEqualTo(VISITOR);
    assertThat(check.item()).isEqualTo("7");
    assertThat(check.until()).isEqualTo(now.plus(LIFETIME));
    assertThat(verifier.verify(pass(ec, now, "7"), ROOM, "7").isAccepted()).isTrue();
  }

  @Test
  void acceptsTheFullySpecifiedEd25519AlgorithmName() {
    String token = sign(ed, header(ed).build(), claims(now, "7").build());
    String renamed =
        sign(
            ed,
            new JWSHeader.Builder(JWSAlgorithm.Ed25519).type(TestPasses.PASS).keyID("ed-1").build(),
            claims(now, "7").build());

    assertThat(verifier.verify(token, ROOM, "7").isAccepted()).isTrue();
    assertThat(verifier.verify(renamed, ROOM, "7").refusal()).isNull();
  }

  @Test
  void refusesAPassOfAnotherRoomOrForAnotherItem() {
    String otherRoom =
        sign(ed, header(ed).build(), claims(now, "sale", Map.of("7", now.plus(LIFETIME))).build());

    assertThat(refusal(otherRoom, "7")).isEqualTo(Refusal.WRONG_ROOM);
    assertThat(refusal(pass(ed, now, "8"), "7")).isEqualTo(Refusal.WRONG_ITEM);
  }

  @Test
  void refusesAnItemWhoseUntilPassedWhileAnotherItemOfThePassStillOpens() {
    String token =
        sign(
            ed,
            header(ed).build(),
            claims(now, ROOM, Map.of("7", now.plusSeconds(60), "8", now.plusSeconds(600))).build());

    clock.advance(Duration.ofSeconds(60 + 30));

    assertThat(refusal(token, "7")).isEqualTo(Refusal.ITEM_ENDED);
    assertThat(verifier.verify(token, ROOM, "8").isAccepted()).isTrue();
  }

  @Test
  void refusesAnExpiredPassOnlyOnceTheLeewayHasPassed() {
    String token = pass(ed, now, "7");

    clock.advance(LIFETIME.plusSeconds(29));
    assertThat(verifier.verify(token, ROOM, "7").isAccepted()).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(refusal(token, "7")).isEqualTo(Refusal.EXPIRED);
  }

  @Test
  void refusesAPassIssuedFurtherThanTheLeewayInTheFuture() {
    assertThat(refusal(pass(ed, now.plusSeconds(31), "7"), "7")).isEqualTo(Refusal.EXPIRED);
  }

  @Test
  void refusesAPassSignedWithAnotherKeyUnderAPublishedKid() {
    TestPasses.Key forger = TestPasses.ed25519("ed-1");

    assertThat(refusal(pass(forger, now, "7"), "7")).isEqualTo(Refusal.SIGNATURE);
  }

  @Test
  void refusesATamperedPass() {
    String token = pass(ed, now, "7");
    String[] parts = token.split("\\.");
    String other = claims(now, "8").build().toPayload().toBase64URL().toString();

    assertThat(refusal(parts[0] + "." + other + "." + parts[2], "8")).isEqualTo(Refusal.SIGNATURE);
  }

  @Test
  void refusesAnUnsignedPass() {
    String header =
        Base64URL.encode("{\"alg\":\"none\",\"typ\":\"anteroom-pass+jwt\"}".getBytes()).toString();
    String payload = claims(now, "7").build().toPayload().toBase64URL().toString();

    assertThat(refusal(header + "." + payload + ".", "7")).isEqualTo(Refusal.ALGORITHM);
  }

  @Test
  void refusesHs256EvenMacedWithThePublicKeyBytes() {
    byte[] publicBytes =
        ed.publicJwk().toJSONString().getBytes(StandardCharsets.UTF_8); // 32+ bytes a forger has
    TestPasses.Key hmac = TestPasses.hs256("ed-1", publicBytes);

    assertThat(refusal(pass(hmac, now, "7"), "7")).isEqualTo(Refusal.ALGORITHM);
  }

  @Test
  void acceptsHs256OnlyWithTheSecretGivenAndNeverWithAKeyOfTheSet() {
    byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    PassVerifier shared =
        PassVerifier.builder().jwkSet(TestPasses.jwks(ed)).hmacSecret(secret).clock(clock).build();
    byte[] publicBytes = ed.publicJwk().toJSONString().getBytes(StandardCharsets.UTF_8);

    assertThat(shared.verify(pass(TestPasses.hs256("main", secret), now, "7"), ROOM, "7"))
        .extracting(PassCheck::isAccepted)
        .isEqualTo(true);
    assertThat(
            shared
                .verify(pass(TestPasses.hs256("ed-1", publicBytes), now, "7"), ROOM, "7")
                .refusal())
        .isEqualTo(Refusal.SIGNATURE);
  }

  @Test
  void refusesHeadersThatNameTheirOwnKey() {
    String token =
        sign(
            ed,
            header(ed).jwkURL(URI.create("https://attacker.example/jwks.json")).build(),
            claims(now, "7").build());

    assertThat(refusal(token, "7")).isEqualTo(Refusal.ALGORITHM);
  }

  @Test
  void refusesATicketUnknownKidsAndAnotherIssuer() {
    String ticket =
        sign(
            ed,
            header(ed).type(new JOSEObjectType("anteroom-ticket+jwt")).build(),
            claims(now, "7").build());
    TestPasses.Key unknown = TestPasses.ed25519("ed-2");
    String foreign = sign(ed, header(ed).build(), claims(now, "7").issuer("someone").build());

    assertThat(refusal(ticket, "7")).isEqualTo(Refusal.TYPE);
    assertThat(refusal(pass(unknown, now, "7"), "7")).isEqualTo(Refusal.UNKNOWN_KEY);
    assertThat(refusal(foreign, "7")).isEqualTo(Refusal.ISSUER);
  }

  @Test
  void refusesAnEs256PassWhoseKidNamesTheEd25519Key() {
    TestPasses.Key mislabelled = TestPasses.es256("ed-1");

    assertThat(refusal(pass(mislabelled, now, "7"), "7")).isEqualTo(Refusal.UNKNOWN_KEY);
  }

  @Test
  void answersMissingAndMalformedWithoutThrowing() {
    assertThat(refusal(null, "7")).isEqualTo(Refusal.MISSING);
    assertThat(refusal("", "7")).isEqualTo(Refusal.MISSING);
    assertThat(refusal("not a token", "7")).isEqualTo(Refusal.MALFORMED);
    assertThat(refusal("a.b.c", "7")).isEqualTo(Refusal.MALFORMED);
    assertThat(refusal("x".repeat(5000), "7")).isEqualTo(Refusal.MALFORMED);
    String noItems = sign(ed, header(ed).build(), claims(now, "7").claim("items", "7").build());
    assertThat(refusal(noItems, "7")).isEqualTo(Refusal.MALFORMED);
  }

  @Test
  void namesItemsAsTheGatewayKeysItsQueues() {
    String raw = "Ünïcode item/with spaces";
    String hashed = QueueId.of(ROOM, raw).item();
    String token =
        sign(ed, header(ed).build(), claims(now, ROOM, Map.of(hashed, now.plus(LIFETIME))).build());

    assertThat(hashed).startsWith("~");
    assertThat(verifier.verify(token, ROOM, raw).isAccepted()).isTrue();
    for (String id : List.of("7", "sku-1.a_B", "_", "x".repeat(64), "x".repeat(65), "a b")) {
      assertThat(ItemIds.normalise(id)).isEqualTo(QueueId.of(ROOM, id).item());
    }
  }

  @Test
  void refusesToBuildWithoutKeysOrWithHs256AsAnAlgorithm() {
    assertThatIllegalArgumentException().isThrownBy(() -> PassVerifier.builder().build());
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                PassVerifier.builder()
                    .jwkSet(TestPasses.jwks(ed))
                    .algorithms(List.of("EdDSA", "HS256"))
                    .build());
  }

  private Refusal refusal(String token, String item) {
    PassCheck check = verifier.verify(token, ROOM, item);
    assertThat(check.isAccepted()).isFalse();
    return check.refusal();
  }
}
