package io.anteroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitEstimateTests {

  final RoomPolicy tenPerSecond =
      PolicyParser.apply("x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "10"));

  @Test
  void aMeasuredRateGivesTwentyPercentEitherSide() {
    WaitEstimate estimate = WaitEstimate.of(500, 2.5, tenPerSecond);

    assertThat(estimate).isEqualTo(new WaitEstimate(160, 200, 240));
    assertThat(estimate.midSeconds()).isEqualTo(200);
  }

  @Test
  void withoutAMeasuredRateTheConfiguredOneIsTheFastestTheLineCanMove() {
    WaitEstimate estimate = WaitEstimate.of(500, 0, tenPerSecond);

    assertThat(estimate).isEqualTo(new WaitEstimate(40, 70, 100));
  }

  @Test
  void theMiddleIsTheMeasuredWaitRoundedNotTheMiddleOfRoundedEnds() {
    // 58 places at 10 per second: 5.8 s, whose ends 4.64 and 6.96 round to 5 and 7.
    assertThat(WaitEstimate.of(58, 10, tenPerSecond)).isEqualTo(new WaitEstimate(5, 6, 7));
  }

  @Test
  void theEstimateNeverReadsZeroBeforeAdmission() {
    WaitEstimate front = WaitEstimate.of(1, 1000, tenPerSecond);

    assertThat(front.minSeconds()).isEqualTo(1);
    assertThat(front.maxSeconds()).isGreaterThanOrEqualTo(1);
    assertThat(front.midSeconds()).isEqualTo(1);
    assertThat(WaitEstimate.of(1, 0, tenPerSecond).minSeconds()).isEqualTo(1);
  }
}
