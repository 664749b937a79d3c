package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PassesTests {

  private static final String VISITOR = "vQx3n0kq7S2mB8yZfL1aPg";
  private static final String OTHER = "n8Jm2c0xQeWl4pVb7sYt1A";

  /** Sessions of 5 minutes, confirmed every 30 s (a tenth): entitlements end 5m30s after. */
  private static final RoomPolicy POLICY =
      PolicyParser.apply("test", RoomPolicy.DEFAULTS, Map.of("session-duration", "5m"));

  private static final Duration IDLE_LIMIT = Duration.ofSeconds(330);

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec tokens =
      new TokenCodec(
          new TokenKeys("k1", Map.of("k1", secret())),
          "anteroom",
          clock,
          Duration.ofSeconds(5),
          Duration.ofHours(24));
  private final Passes passes = new Passes(tokens, new AnteroomCookies(true), clock);
  private final QueueId one = new QueueId("shop", "1");
  private final QueueId two = new QueueId("shop", "2");

  @Test
  void aPassGivenAtAdmissionEndsTheIdleLimitFromNow() {
    Pass pass = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));

    assertThat(pass.entitlements())
        .containsExactly(
            new Entitlement(
                "1", clock.instant().plus(IDLE_LIMIT), clock.instant(), clock.instant()));
    assertThat(POLICY.sessionIdleLimit()).isEqualTo(IDLE_LIMIT);
  }

  @Test
  void aPassPickedUpLaterEndsWithTheSessionThatBeganAtAdmission() {
    Instant admitted = clock.instant().minusSeconds(240);

    Pass pass = read(passes.admitted(VISITOR, one, null, admitted, admitted, POLICY));

    assertThat(pass.entitlements())
        .containsExactly(new Entitlement("1", admitted.plus(IDLE_LIMIT), admitted, admitted));
  }

  @Test
  void aTicketHolderFoundRunningAfterConfirmationsKeepsTheLinesAdmission() {
    Instant admitted = clock.instant().minusSeconds(240);
    Instant confirmed = clock.instant().minusSeconds(10);

    Pass pass = read(passes.admitted(VISITOR, one, null, confirmed, admitted, POLICY));

    assertThat(pass.entitlements())
        .containsExactly(new Entitlement("1", confirmed.plus(IDLE_LIMIT), confirmed, admitted));
  }

  @Test
  void oneRunningWithoutTheLinesAdmissionIsGivenAPassNamingNone() {
    Instant registered = clock.instant().minusSeconds(10);

    Pass pass = read(passes.admitted(VISITOR, one, null, registered, null, POLICY));

    assertThat(pass.entitlements().get(0).admitted()).isNull();
  }

  @Test
  void aSessionAboutToBeExpiredStillGivesTheShortestPass() {
    Instant admitted = clock.instant().minus(IDLE_LIMIT);

    Passes.Issued issued = passes.admitted(VISITOR, one, null, admitted, admitted, POLICY);

    assertThat(read(issued).entitlements().get(0).until())
        .isEqualTo(clock.instant().plusSeconds(1));
    assertThat(issued.cookie().getMaxAge()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anActivityTimeAheadOfThisClockCountsAsNow() {
    Pass pass =
        read(
            passes.admitted(
                VISITOR, one, null, clock.instant().plusSeconds(30), clock.instant(), POLICY));

    assertThat(pass.entitlements().get(0).checked()).isEqualTo(clock.instant());
  }

  @Test
  void anotherItemCarriedIntoANewPassKeepsItsOwnEndAndCheck() {
    Pass first = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));
    Entitlement kept = first.entitlements().get(0);
    clock.advance(Duration.ofMinutes(4));

    Pass second = read(passes.admitted(VISITOR, two, first, null, clock.instant(), POLICY));

    assertThat(second.entitlements())
        .containsExactly(
            new Entitlement(
                "2", clock.instant().plus(IDLE_LIMIT), clock.instant(), clock.instant()),
            kept);
  }

  /**
   * An origin that checks passes itself trusts each item's end: a pass for another item never
   * lengthens it, also where activity on any item keeps the visitor's sessions running in Redis.
   */
  @Test
  void inARoomOfRoomScopeTooAnotherItemKeepsItsOwnEnd() {
    RoomPolicy roomScope = PolicyParser.apply("test", POLICY, Map.of("session-scope", "room"));
    Pass first = read(passes.admitted(VISITOR, one, null, null, clock.instant(), roomScope));
    Entitlement kept = first.entitlements().get(0);
    clock.advance(Duration.ofMinutes(4));

    Pass second = read(passes.admitted(VISITOR, two, first, null, clock.instant(), roomScope));

    assertThat(second.entitlements())
        .containsExactly(
            new Entitlement(
                "2", clock.instant().plus(IDLE_LIMIT), clock.instant(), clock.instant()),
            kept);
  }

  @Test
  void anEndedItemIsNotCarriedIntoANewPass() {
    Pass first = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));
    clock.advance(IDLE_LIMIT);

    Pass second = read(passes.admitted(VISITOR, two, first, null, clock.instant(), POLICY));

    assertThat(second.items()).containsExactly("2");
  }

  @Test
  void anotherVisitorsPassIsNotCarried() {
    Pass theirs = read(passes.admitted(OTHER, one, null, null, clock.instant(), POLICY));

    Pass mine = read(passes.admitted(VISITOR, two, theirs, null, clock.instant(), POLICY));

    assertThat(mine.items()).containsExactly("2");
  }

  @Test
  void aRenewalMovesOnlyTheConfirmedItemsEndAndPutsItFirstKeepingItsAdmission() {
    Instant admitted = clock.instant();
    Pass first = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));
    Pass both = read(passes.admitted(VISITOR, two, first, null, clock.instant(), POLICY));
    clock.advance(Duration.ofSeconds(40));
    Instant confirmed = clock.instant().minusSeconds(2);

    Pass renewed = read(passes.renewed(both, one, confirmed, POLICY));

    assertThat(renewed.entitlements())
        .containsExactly(
            new Entitlement("1", confirmed.plus(IDLE_LIMIT), confirmed, admitted),
            both.entitlements().get(0));
  }

  @Test
  void aPassGivenWhileTheQueueIsOffSaysNoAdmissionAndItsRenewalsNeither() {
    Pass direct = read(passes.direct(VISITOR, one, null, POLICY));
    clock.advance(Duration.ofSeconds(40));

    Pass renewed = read(passes.renewed(direct, one, clock.instant(), POLICY));

    assertThat(direct.entitlements().get(0).admitted()).isNull();
    assertThat(renewed.entitlements().get(0).admitted()).isNull();
    assertThat(renewed.entitlements().get(0).admittedWithin(clock.instant(), Duration.ofDays(1)))
        .isFalse();
  }

  @Test
  void aPassFromTheLineIsWithinTheGraceOnlyUntilItEnds() {
    Pass pass = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));
    Entitlement entitlement = pass.entitlements().get(0);
    Duration grace = Duration.ofSeconds(30);

    assertThat(entitlement.admittedWithin(clock.instant().plusSeconds(29), grace)).isTrue();
    assertThat(entitlement.admittedWithin(clock.instant().plusSeconds(30), grace)).isFalse();
  }

  @Test
  void withoutAnItemLeavesTheOthersOrClearsThePass() {
    Pass first = read(passes.admitted(VISITOR, one, null, null, clock.instant(), POLICY));
    Pass both = read(passes.admitted(VISITOR, two, first, null, clock.instant(), POLICY));

    var rest = passes.without(VISITOR, both.entitlements(), two);
    var none = passes.without(VISITOR, first.entitlements(), one);

    assertThat(readToken(rest.getValue()).entitlements()).isEqualTo(first.entitlements());
    assertThat(none.getValue()).isEmpty();
    assertThat(none.getMaxAge()).isZero();
  }

  private Pass read(Passes.Issued issued) {
    assertThat(issued.cookie().getValue()).isEqualTo(issued.token());
    return readToken(issued.token());
  }

  private Pass readToken(String token) {
    Verified<Pass> read = tokens.readPass(token, "shop");
    assertThat(read.isValid()).isTrue();
    return ((Verified.Valid<Pass>) read).value();
  }

  private static byte[] secret() {
    byte[] secret = new byte[32];
    Arrays.fill(secret, (byte) 7);
    return secret;
  }
}
