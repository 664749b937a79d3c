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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenCodecTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec codec = TokenFixtures.codec(clock);

  @Test
  void passRoundTripsWithEveryClaim() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("sku-1", "_"), LIFETIME);

    Pass pass = valid(codec.readPass(token, ROOM));

    assertThat(pass.visitor()).isEqualTo(VISITOR);
    assertThat(pass.room()).isEqualTo(ROOM);
    assertThat(pass.items()).containsExactly("sku-1", "_");
    assertThat(pass.issuedAt()).isEqualTo(clock.instant());
    assertThat(pass.expiresAt()).isEqualTo(clock.instant().plus(LIFETIME));
    assertThat(VisitorIds.isVisitorId(pass.id())).isTrue();
  }

  @Test
  void eachItemOfAPassEndsOnItsOwnAfterTheLeeway() {
    Instant now = clock.instant();
    String token =
        codec.issuePass(
            VISITOR,
            ROOM,
            List.of(
                new Entitlement("sku-1", now.plusSeconds(60), now),
                new Entitlement("sku-2", now.plusSeconds(600), now.minusSeconds(5))));

    clock.advance(Duration.ofSeconds(60).plus(TokenFixtures.LEEWAY).minusMillis(1));
    assertThat(valid(codec.readPass(token, ROOM)).items()).containsExactly("sku-1", "sku-2");
    clock.advance(Duration.ofMillis(1));
    Pass later = valid(codec.readPass(token, ROOM));
    assertThat(later.entitlements())
        .containsExactly(new Entitlement("sku-2", now.plusSeconds(600), now.minusSeconds(5)));
    assertThat(later.expiresAt()).isEqualTo(now.plusSeconds(600));

    clock.set(now.plusSeconds(600).plus(TokenFixtures.LEEWAY));
    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  @Test
  void anItemTheLineAdmittedToSaysWhenAndOneWithoutAnAdmissionSaysNone() {
    Instant now = clock.instant();
    Instant admitted = now.minusMillis(1_234);
    String token =
        codec.issuePass(
            VISITOR,
            ROOM,
            List.of(
                new Entitlement("sku-1", now.plusSeconds(60), now, admitted),
                new Entitlement("sku-2", now.plusSeconds(60), now)));

    Pass pass = valid(codec.readPass(token, ROOM));

    assertThat(pass.entitlements().get(0).admitted()).isEqualTo(admitted);
    assertThat(pass.entitlements().get(1).admitted()).isNull();
    assertThat(TokenFixtures.part(token, 1))
        .contains("\"admitted\":" + admitted.toEpochMilli())
        .containsOnlyOnce("admitted");
  }

  @Test
  void aPassWhoseAdmissionIsNotATimeIsRefused() {
    long now = clock.millis();

    assertThat(readPassWithAdmission(now).isValid()).isTrue();
    assertThat(readPassWithAdmission("now")).isEqualTo(Verified.rejected(Rejection.CLAIMS));
    assertThat(readPassWithAdmission(-1L)).isEqualTo(Verified.rejected(Rejection.CLAIMS));
  }

  private Verified<Pass> readPassWithAdmission(Object admitted) {
    Map<String, Object> claims = TokenFixtures.passClaims(clock);
    long now = clock.millis();
    claims.put(
        "items",
        List.of(
            Map.of("item", "sku-1", "until", now + 60_000, "checked", now, "admitted", admitted)));
    return codec.readPass(TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, K1), ROOM);
  }

  @Test
  void aPassReadAgainIsCheckedForItsRoomAndTimesEachTime() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("sku-1"), LIFETIME);
    assertThat(valid(codec.readPass(token, ROOM)).items()).containsExactly("sku-1");

    assertThat(codec.readPass(token, "other-room"))
        .isEqualTo(Verified.rejected(Rejection.AUDIENCE));
    clock.advance(LIFETIME.plus(TokenFixtures.LEEWAY));
    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  @Test
  void aPassOfBareItemsEndsEachAtItsExpiryCheckedAtItsIssue() {
    Map<String, Object> claims = TokenFixtures.passClaims(clock);

    Pass pass =
        valid(
            codec.readPass(TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, K1), ROOM));

    Instant issued = clock.instant();
    assertThat(pass.entitlements())
        .containsExactly(
            new Entitlement("sku-1", issued.plus(LIFETIME), issued),
            new Entitlement("_", issued.plus(LIFETIME), issued));
  }

  @Test
  void aPassOfEndedItemsOnlyCannotBeIssued() {
    Instant now = clock.instant();

    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> codec.issuePass(VISITOR, ROOM, List.of(new Entitlement("sku-1", now, now))));
  }

  @Test
  void passIsACompactJwsWithKidTypeAndSingleAudience() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(TokenFixtures.part(token, 0))
        .contains("\"alg\":\"HS256\"", "\"kid\":\"k1\"", "\"typ\":\"anteroom-pass+jwt\"");
    assertThat(TokenFixtures.part(token, 1))
        .contains("\"aud\":\"flash-sale\"", "\"iss\":\"anteroom\"", "\"items\":[{")
        .contains("\"item\":\"_\"");
  }

  @Test
  void ticketRoundTripsBoundToItsQueue() {
    QueueId queue = new QueueId(ROOM, "sku-1");
    String token = codec.issueTicket(VISITOR, queue);

    Ticket ticket = valid(codec.readTicket(token, ROOM));

    assertThat(ticket.visitor()).isEqualTo(VISITOR);
    assertThat(ticket.queue()).isEqualTo(queue);
    assertThat(ticket.issuedAt()).isEqualTo(clock.instant());
    assertThat(TokenFixtures.part(token, 0)).contains("\"typ\":\"anteroom-ticket+jwt\"");
    assertThat(TokenFixtures.part(token, 1)).contains("\"item\":\"sku-1\"").doesNotContain("exp");
  }

  @Test
  void aTicketNamesThePlaceItsVisitorHeldAndARenewalKeepsIt() {
    QueueId queue = new QueueId(ROOM, "sku-1");

    Ticket drawn = valid(codec.readTicket(codec.issueTicket(VISITOR, queue, null, 17.4375), ROOM));
    Ticket renewed =
        valid(
            codec.readTicket(
                codec.issueTicket(VISITOR, queue, drawn.joinedAt(), drawn.place()), ROOM));
    Ticket unplaced = valid(codec.readTicket(codec.issueTicket(VISITOR, queue), ROOM));
    Ticket whole = valid(codec.readTicket(codec.issueTicket(VISITOR, queue, null, 3), ROOM));

    assertThat(drawn.place()).isEqualTo(17.4375);
    assertThat(renewed.place()).isEqualTo(17.4375);
    assertThat(unplaced.place()).isNaN();
    assertThat(whole.place()).isEqualTo(3);
  }

  @Test
  void twoPassesForTheSameVisitorHaveDifferentIds() {
    String first = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    String second = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(valid(codec.readPass(first, ROOM)).id())
        .isNotEqualTo(valid(codec.readPass(second, ROOM)).id());
  }

  @Test
  void passItemsAreDeduplicatedInOrderAndCappedAtSixteen() {
    List<String> items = new ArrayList<>(List.of("sku-0", "sku-1", "sku-0"));
    for (int i = 2; i < 30; i++) {
      items.add("sku-" + i);
    }

    Pass pass = valid(codec.readPass(codec.issuePass(VISITOR, ROOM, items, LIFETIME), ROOM));

    assertThat(pass.items()).hasSize(TokenCodec.MAX_ITEMS).startsWith("sku-0", "sku-1", "sku-2");
    assertThat(pass.items()).doesNotHaveDuplicates().last().isEqualTo("sku-15");
  }

  @Test
  void issuingRejectsArgumentsTheCallerShouldHaveChecked() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> codec.issuePass("not-a-visitor", ROOM, List.of("_"), LIFETIME));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> codec.issuePass(VISITOR, "Bad Room", List.of("_"), LIFETIME));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> codec.issuePass(VISITOR, ROOM, List.of(), LIFETIME));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> codec.issuePass(VISITOR, ROOM, List.of("a b"), LIFETIME));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> codec.issuePass(VISITOR, ROOM, List.of("_"), Duration.ofMillis(500)));
  }

  @Test
  void passOfOneRoomReadForAnotherIsRejectedForAudience() {
    String token = codec.issuePass(VISITOR, "room-a", List.of("_"), LIFETIME);

    assertThat(codec.readPass(token, "room-b")).isEqualTo(Verified.rejected(Rejection.AUDIENCE));
    assertThat(codec.readPass(token, null)).isEqualTo(Verified.rejected(Rejection.AUDIENCE));
  }

  @Test
  void ticketOfOneRoomReadForAnotherIsRejectedForAudience() {
    String token = codec.issueTicket(VISITOR, QueueId.roomWide("room-a"));

    assertThat(codec.readTicket(token, "room-b")).isEqualTo(Verified.rejected(Rejection.AUDIENCE));
  }

  @Test
  void ticketPresentedAsPassIsRejectedForType() {
    String ticket = codec.issueTicket(VISITOR, QueueId.roomWide(ROOM));

    assertThat(codec.readPass(ticket, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
  }

  @Test
  void passPresentedAsTicketIsRejectedForType() {
    String pass = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(codec.readTicket(pass, ROOM)).isEqualTo(Verified.rejected(Rejection.TYPE));
  }

  @Test
  void passFromAnotherIssuerWithTheSameKeyIsRejectedForIssuer() {
    TokenCodec other =
        new TokenCodec(
            TokenFixtures.k1(),
            "someone-else",
            clock,
            TokenFixtures.LEEWAY,
            TokenFixtures.TICKET_MAX_AGE);
    String token = other.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ISSUER));
  }

  @Test
  void passExpiredWithinTheLeewayIsStillValid() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    clock.advance(LIFETIME.plusMillis(4_999));

    assertThat(codec.readPass(token, ROOM).isValid()).isTrue();
  }

  @Test
  void passExpiredBeyondTheLeewayIsRejected() {
    String token = codec.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    clock.advance(LIFETIME.plusSeconds(5));

    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  @Test
  void passIssuedByAGatewayWithAClockAheadWithinTheLeewayIsValid() {
    MutableClock ahead = MutableClock.startingAt2026();
    ahead.advance(Duration.ofSeconds(5));
    String token = TokenFixtures.codec(ahead).issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(codec.readPass(token, ROOM).isValid()).isTrue();
  }

  @Test
  void passIssuedInTheFutureBeyondTheLeewayIsNotYetValid() {
    MutableClock ahead = MutableClock.startingAt2026();
    ahead.advance(Duration.ofSeconds(6));
    String token = TokenFixtures.codec(ahead).issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.NOT_YET_VALID));
  }

  @Test
  void ticketIssuedInTheFutureBeyondTheLeewayIsNotYetValid() {
    MutableClock ahead = MutableClock.startingAt2026();
    ahead.advance(Duration.ofMinutes(1));
    String token = TokenFixtures.codec(ahead).issueTicket(VISITOR, QueueId.roomWide(ROOM));

    assertThat(codec.readTicket(token, ROOM)).isEqualTo(Verified.rejected(Rejection.NOT_YET_VALID));
  }

  @Test
  void ticketYoungerThanTheMaxAgeIsValidAndOlderIsExpired() {
    String token = codec.issueTicket(VISITOR, QueueId.roomWide(ROOM));

    clock.advance(TokenFixtures.TICKET_MAX_AGE.plusSeconds(4));
    assertThat(codec.readTicket(token, ROOM).isValid()).isTrue();

    clock.advance(Duration.ofSeconds(1));
    assertThat(codec.readTicket(token, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  @Test
  void handMadePassWithEveryClaimIsValid() {
    String token =
        TokenFixtures.hs256(TokenFixtures.passHeader("k1"), TokenFixtures.passClaims(clock), K1);

    assertThat(valid(codec.readPass(token, ROOM)).items()).containsExactly("sku-1", "_");
  }

  private static <T> T valid(Verified<T> verified) {
    assertThat(verified).isInstanceOf(Verified.Valid.class);
    return ((Verified.Valid<T>) verified).value();
  }
}
