package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Map;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class PollScheduleTests {

  final RoomPolicy tenPerSecond =
      PolicyParser.apply(
          "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "10", "abandon-after", "2m"));

  @Test
  void etaFollowsTheRateAndNeverReadsZero() {
    assertThat(PollSchedule.etaSeconds(1, tenPerSecond)).isEqualTo(1);
    assertThat(PollSchedule.etaSeconds(100, tenPerSecond)).isEqualTo(10);
    assertThat(PollSchedule.etaSeconds(101, tenPerSecond)).isEqualTo(11);
  }

  @RepeatedTest(20)
  void nearTheFrontPollsEveryFewSeconds() {
    assertThat(PollSchedule.pollAfterSeconds(3, tenPerSecond)).isBetween(1L, 3L);
  }

  @RepeatedTest(20)
  void farBackPollsSlowlyButWellInsideTheAbandonTimeout() {
    long after = PollSchedule.pollAfterSeconds(1_000_000, tenPerSecond);

    assertThat(after).isBetween(20L, 36L).isLessThanOrEqualTo(120 / 3);
  }

  @RepeatedTest(20)
  void aShortAbandonTimeoutShortensPolling() {
    RoomPolicy quick = PolicyParser.apply("x", tenPerSecond, Map.of("abandon-after", "20s"));

    assertThat(PollSchedule.pollAfterSeconds(1_000_000, quick)).isBetween(1L, 6L);
  }

  @RepeatedTest(20)
  void aMeasuredEstimateSetsThePaceOfPolling() {
    // The configured rate says 10 s for place 100; the line really moves at 1 per second.
    long after = PollSchedule.pollAfterSeconds(100, new WaitEstimate(80, 100, 120), tenPerSecond);

    assertThat(after).isBetween(6L, 10L);
    assertThat(PollSchedule.pollAfterSeconds(100, tenPerSecond)).isBetween(1L, 3L);
  }

  @Test
  void theHiddenTabCeilingIsAThirdOfTheAbandonTimeoutAndAboveEveryVisibleInterval() {
    assertThat(PollSchedule.ceilingSeconds(tenPerSecond)).isEqualTo(40);
    RoomPolicy quick = PolicyParser.apply("x", tenPerSecond, Map.of("abandon-after", "20s"));
    assertThat(PollSchedule.ceilingSeconds(quick)).isEqualTo(6);
    for (int i = 0; i < 200; i++) {
      assertThat(PollSchedule.pollAfterSeconds(1_000_000, quick))
          .isLessThanOrEqualTo(PollSchedule.ceilingSeconds(quick));
      assertThat(PollSchedule.pollAfterSeconds(1_000_000, tenPerSecond))
          .isLessThanOrEqualTo(PollSchedule.ceilingSeconds(tenPerSecond));
    }
  }
}
