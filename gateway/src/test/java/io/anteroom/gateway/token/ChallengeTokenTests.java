package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Proof-of-work challenges: bound to a visitor and queue, short-lived, never a pass or ticket. */
class ChallengeTokenTests {

  final MutableClock clock = MutableClock.startingAt2026();
  final TokenCodec codec = TokenFixtures.codec(clock);
  final QueueId queue = new QueueId(ROOM, "sku-1");

  @Test
  void challengeRoundTripsWithItsVisitorQueueAndDifficulty() {
    String token = codec.issueChallenge(VISITOR, queue, 16);

    Challenge challenge = ((Verified.Valid<Challenge>) codec.readChallenge(token, ROOM)).value();

    assertThat(challenge).isEqualTo(new Challenge(VISITOR, queue, 16, clock.instant()));
    assertThat(TokenFixtures.part(token, 0)).contains("\"typ\":\"anteroom-challenge+jwt\"");
  }

  @Test
  void aChallengeIsNeitherAPassNorATicketAndTheyAreNoChallenge() {
    String challenge = codec.issueChallenge(VISITOR, queue, 16);
    String ticket = codec.issueTicket(VISITOR, queue);
    String pass = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);

    assertThat(codec.readPass(challenge, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
    assertThat(codec.readTicket(challenge, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
    assertThat(codec.readChallenge(ticket, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
    assertThat(codec.readChallenge(pass, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
  }

  @Test
  void aChallengeExpiresTenMinutesAfterIssueBeyondTheLeeway() {
    String token = codec.issueChallenge(VISITOR, queue, 16);

    clock.advance(TokenCodec.CHALLENGE_MAX_AGE.plus(TokenFixtures.LEEWAY).minusSeconds(1));
    assertThat(codec.readChallenge(token, ROOM)).isInstanceOf(Verified.Valid.class);
    clock.advance(Duration.ofSeconds(1));
    assertThat(codec.readChallenge(token, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  @Test
  void aChallengeOfAnotherRoomOrWithoutADifficultyIsRefused() {
    assertThat(codec.readChallenge(codec.issueChallenge(VISITOR, queue, 16), "other"))
        .isEqualTo(Verified.rejected(Rejection.AUDIENCE));

    Map<String, Object> claims = TokenFixtures.ticketClaims(clock);
    String header = "{\"alg\":\"HS256\",\"kid\":\"k1\",\"typ\":\"anteroom-challenge+jwt\"}";
    assertThat(codec.readChallenge(TokenFixtures.hs256(header, claims, K1), ROOM))
        .isEqualTo(Verified.rejected(Rejection.CLAIMS));
    claims.put("pow", 33L);
    assertThat(codec.readChallenge(TokenFixtures.hs256(header, claims, K1), ROOM))
        .isEqualTo(Verified.rejected(Rejection.CLAIMS));
    claims.put("pow", "16");
    assertThat(codec.readChallenge(TokenFixtures.hs256(header, claims, K1), ROOM))
        .isEqualTo(Verified.rejected(Rejection.CLAIMS));
  }

  @Test
  void issuingRefusesDifficultiesOutsideOneToThirtyTwoBits() {
    assertThatIllegalArgumentException().isThrownBy(() -> codec.issueChallenge(VISITOR, queue, 0));
    assertThatIllegalArgumentException().isThrownBy(() -> codec.issueChallenge(VISITOR, queue, 33));
  }
}
