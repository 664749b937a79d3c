package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.CapWait;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitEstimateTests {

  final RoomPolicy tenPerSecond =
      PolicyParser.apply("x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "10"));

  @Test
  void aMeasuredRateGivesTwentyPercentEitherSide() {
    WaitEstimate estimate = WaitEstimate.of(500, 2.5, tenPerSecond.admitPerSecond());

    assertThat(estimate).isEqualTo(new WaitEstimate(160, 200, 240));
    assertThat(estimate.midSeconds()).isEqualTo(200);
  }

  @Test
  void withoutAMeasuredRateTheConfiguredOneIsTheFastestTheLineCanMove() {
    WaitEstimate estimate = WaitEstimate.of(500, 0, tenPerSecond.admitPerSecond());

    assertThat(estimate).isEqualTo(new WaitEstimate(40, 70, 100));
  }

  @Test
  void theMiddleIsTheMeasuredWaitRoundedNotTheMiddleOfRoundedEnds() {
    // 58 places at 10 per second: 5.8 s, whose ends 4.64 and 6.96 round to 5 and 7.
    assertThat(WaitEstimate.of(58, 10, tenPerSecond.admitPerSecond()))
        .isEqualTo(new WaitEstimate(5, 6, 7));
  }

  @Test
  void theEstimateNeverReadsZeroBeforeAdmission() {
    WaitEstimate front = WaitEstimate.of(1, 1000, tenPerSecond.admitPerSecond());

    assertThat(front.minSeconds()).isEqualTo(1);
    assertThat(front.maxSeconds()).isGreaterThanOrEqualTo(1);
    assertThat(front.midSeconds()).isEqualTo(1);
    assertThat(WaitEstimate.of(1, 0, tenPerSecond.admitPerSecond()).minSeconds()).isEqualTo(1);
  }

  final RoomPolicy onePerSecondCapOfOne =
      PolicyParser.apply(
          "x",
          RoomPolicy.DEFAULTS,
          Map.of("admit-per-second", "1", "max-active", "1", "session-duration", "30s"));

  @Test
  void whenTheCapBindsTheFrontOfTheLineWaitsForTheRunningSessionToEnd() {
    // The one running session ends in 19.5 s; the rate alone would say 1 s.
    WaitEstimate estimate =
        WaitEstimate.of(
            1,
            0,
            onePerSecondCapOfOne.admitPerSecond(),
            new CapWait(19_500, 0, 1),
            onePerSecondCapOfOne);

    assertThat(estimate.minSeconds()).isEqualTo(19);
    assertThat(estimate.maxSeconds()).isEqualTo(22);
    assertThat(estimate.midSeconds()).isBetween(19L, 22L);
  }

  @Test
  void whenTheCapBindsAMeasuredRateOfSessionEndsDoesNotShortenTheWait() {
    // One session of 30 s at a time measures as 1/33 per second; the session ends in 5 s.
    WaitEstimate estimate =
        WaitEstimate.of(
            1,
            1 / 33.0,
            onePerSecondCapOfOne.admitPerSecond(),
            new CapWait(5_000, 0, 1),
            onePerSecondCapOfOne);

    assertThat(estimate).isEqualTo(new WaitEstimate(5, 6, 7));
  }

  @Test
  void endsThatComeTogetherAreAdmittedOneByOneAtTheRate() {
    RoomPolicy fiveAtHalfPerSecond =
        PolicyParser.apply(
            "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "0.5", "max-active", "5"));

    WaitEstimate fifth =
        WaitEstimate.of(
            5,
            0,
            fiveAtHalfPerSecond.admitPerSecond(),
            new CapWait(10_000, 0, 5),
            fiveAtHalfPerSecond);

    assertThat(fifth.minSeconds()).isEqualTo(10);
    assertThat(fifth.maxSeconds()).isEqualTo(10 + 2 + 4 * 2);
  }

  @Test
  void eachTurnOfTheSlotAddsItsOwnAllowance() {
    WaitEstimate third =
        WaitEstimate.of(
            3,
            0,
            onePerSecondCapOfOne.admitPerSecond(),
            new CapWait(70_000, 2, 1),
            onePerSecondCapOfOne);

    assertThat(third.minSeconds()).isEqualTo(70);
    assertThat(third.maxSeconds()).isEqualTo(70 + 3 * 2);
  }

  @Test
  void whenTheRateHoldsThePlaceBackLongerThanTheCapTheConfiguredRateGivesTheRange() {
    // Place 100 at 1 per second, behind a session that ends in 3 s: the rate binds. The measured
    // 0.1 per second are session ends of an earlier moment, not the rate.
    RoomPolicy onePerSecondCapOfTen =
        PolicyParser.apply(
            "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "1", "max-active", "10"));

    WaitEstimate estimate =
        WaitEstimate.of(
            100,
            0.1,
            onePerSecondCapOfTen.admitPerSecond(),
            new CapWait(3_000, 9, 1),
            onePerSecondCapOfTen);

    assertThat(estimate.minSeconds()).isEqualTo(79);
    assertThat(estimate.maxSeconds()).isEqualTo(122);
  }

  @Test
  void theRangeNeverStartsBeforeTheSessionThatFreesTheSlotEnds() {
    RoomPolicy onePerSecondCapOfTen =
        PolicyParser.apply(
            "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "1", "max-active", "10"));

    // The rate binds (place 30 at 1 per second, 24-36 s), but the slot is only free in 27 s.
    WaitEstimate estimate =
        WaitEstimate.of(
            30,
            1,
            onePerSecondCapOfTen.admitPerSecond(),
            new CapWait(27_000, 0, 1),
            onePerSecondCapOfTen);

    assertThat(estimate.minSeconds()).isEqualTo(27);
    assertThat(estimate.maxSeconds()).isEqualTo(38);
  }

  @Test
  void aSlotFreeForThePlaceWhileTheCapBindsBehindItLeavesTheConfiguredRate() {
    // One session of 30 s at a time measured 1/33 per second; place 1 has a free slot now.
    WaitEstimate estimate =
        WaitEstimate.of(
            1,
            1 / 33.0,
            onePerSecondCapOfOne.admitPerSecond(),
            new CapWait(0, 0, 0),
            onePerSecondCapOfOne);

    assertThat(estimate.minSeconds()).isEqualTo(1);
    assertThat(estimate.maxSeconds()).isEqualTo(4);
  }

  @Test
  void withoutTheCapTheRateGivesTheRange() {
    assertThat(WaitEstimate.of(58, 10, tenPerSecond.admitPerSecond(), CapWait.NONE, tenPerSecond))
        .isEqualTo(WaitEstimate.of(58, 10, tenPerSecond.admitPerSecond()));
  }

  /**
   * The demo's case: a room whose new-users bucket a shadow run left in debt (60 a minute, ten
   * minutes owed) told place 1 "2–6 s". The debt comes first, at both ends.
   */
  @Test
  void whenTheRoomsBucketIsInDebtTheTimeUntilItHoldsATokenComesFirst() {
    CapWait debt = new CapWait(-1, 0, 0, 600_000);

    WaitEstimate estimate = WaitEstimate.of(1, 0, 1, debt, tenPerSecond);

    WaitEstimate byRate = WaitEstimate.of(1, 0, 1);
    assertThat(estimate)
        .isEqualTo(
            new WaitEstimate(
                byRate.minSeconds() + 600, byRate.midSeconds() + 600, byRate.maxSeconds() + 600));
    assertThat(WaitEstimate.of(1, 0, 1, new CapWait(-1, 0, 0, 1), tenPerSecond).minSeconds())
        .as("a part of a second owed is a second")
        .isEqualTo(byRate.minSeconds() + 1);
  }
}
