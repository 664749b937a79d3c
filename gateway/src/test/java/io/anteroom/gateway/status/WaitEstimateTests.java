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

    assertThat(estimate).isEqualTo(new WaitEstimate(160, 240));
    assertThat(estimate.midSeconds()).isEqualTo(200);
  }

  @Test
  void withoutAMeasuredRateTheConfiguredOneIsTheFastestTheLineCanMove() {
    WaitEstimate estimate = WaitEstimate.of(500, 0, tenPerSecond);

    assertThat(estimate).isEqualTo(new WaitEstimate(40, 100));
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
