package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.K2;
import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rotation: add the new key, sign with it, drop the old key after the pass lifetime. */
class KeyRotationTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec before =
      TokenFixtures.codec(new TokenKeys("old", Map.of("old", K1)), clock);
  private final TokenCodec during =
      TokenFixtures.codec(new TokenKeys("new", Map.of("old", K1, "new", K2)), clock);
  private final TokenCodec after =
      TokenFixtures.codec(new TokenKeys("new", Map.of("new", K2)), clock);

  @Test
  void passSignedWithTheOldKeyVerifiesWhileTheOldKeyIsListed() {
    String token = before.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(during.readPass(token, ROOM).isValid()).isTrue();
  }

  @Test
  void passSignedWithTheOldKeyIsRejectedOnceTheOldKeyIsRemoved() {
    String token = before.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(after.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.UNKNOWN_KEY));
  }

  @Test
  void newTokensCarryTheSigningKidAndVerifyOnEveryGatewayThatListsIt() {
    String pass = during.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    String ticket = during.issueTicket(VISITOR, QueueId.roomWide(ROOM));

    assertThat(TokenFixtures.part(pass, 0)).contains("\"kid\":\"new\"");
    assertThat(TokenFixtures.part(ticket, 0)).contains("\"kid\":\"new\"");
    assertThat(after.readPass(pass, ROOM).isValid()).isTrue();
    assertThat(after.readTicket(ticket, ROOM).isValid()).isTrue();
  }

  @Test
  void passClaimingTheNewKidButSignedWithTheOldKeyIsRejectedForSignature() {
    String token =
        TokenFixtures.hs256(TokenFixtures.passHeader("new"), TokenFixtures.passClaims(clock), K1);

    assertThat(during.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.SIGNATURE));
  }

  @Test
  void keysListEveryAcceptedKid() {
    assertThat(new TokenKeys("new", Map.of("old", K1, "new", K2)).kids())
        .containsExactlyInAnyOrder("old", "new");
  }

  @Test
  void oldKeyIsAcceptedUntilItsEndAndRefusedFromThenOn() {
    String token = before.issuePass(VISITOR, ROOM, List.of("_"), java.time.Duration.ofHours(2));
    java.time.Instant end = clock.instant().plusSeconds(600);
    TokenCodec overlapping =
        TokenFixtures.codec(
            new TokenKeys("new", Map.of("old", K1, "new", K2), Map.of("old", end), clock), clock);

    assertThat(overlapping.readPass(token, ROOM).isValid()).isTrue();
    clock.advance(java.time.Duration.ofSeconds(599));
    assertThat(overlapping.readPass(token, ROOM).isValid()).isTrue();
    clock.advance(java.time.Duration.ofSeconds(1));
    assertThat(overlapping.readPass(token, ROOM))
        .isEqualTo(Verified.rejected(Rejection.UNKNOWN_KEY));
    String fresh = overlapping.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    assertThat(overlapping.readPass(fresh, ROOM).isValid()).isTrue();
  }

  @Test
  void signingKeyCannotHaveAnEnd() {
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                new TokenKeys(
                    "new", Map.of("old", K1, "new", K2), Map.of("new", clock.instant()), clock));
  }
}
