package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.K2;
import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.testing.MutableClock;
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
}
