package io.anteroom.bench.crowd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmUpTests {

  @Test
  void goOnWhenBelowTheMinimumThenYes() {
    assertThat(WarmUp.goOn(List.of(), 20_000, 100_000)).isTrue();
    assertThat(WarmUp.goOn(List.of(slice(1000), slice(900)), 30_000, 100_000)).isTrue();
  }

  @Test
  void goOnWhenTheLastSliceIsStillMuchFasterThenYes() {
    assertThat(WarmUp.goOn(List.of(slice(1000), slice(2000), slice(2500)), 30_000, 100_000))
        .isTrue();
  }

  @Test
  void goOnWhenTheRateLevelsOffThenNo() {
    assertThat(WarmUp.goOn(List.of(slice(1000), slice(2000), slice(2100)), 30_000, 100_000))
        .isFalse();
  }

  @Test
  void goOnWhenAtTheMaximumThenNoEvenWhileSpeedingUp() {
    assertThat(WarmUp.goOn(List.of(slice(1000), slice(2000), slice(4000)), 10_000, 30_000))
        .isFalse();
  }

  /** 10,000 joins at {@code rate} per second. */
  private static ChunkResult slice(double rate) {
    return new ChunkResult(10_000, 10_000, "none", 10_000 / rate, 0, 10_000, true);
  }
}
