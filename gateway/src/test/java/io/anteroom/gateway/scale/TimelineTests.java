package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTests {

  @Test
  void peakCountsBothEndsOfTheWindow() {
    List<Long> times = List.of(0L, 0L, 50L, 100L, 101L, 300L);

    assertThat(Timeline.peak(times, 100)).isEqualTo(4);
    assertThat(Timeline.peak(times, 0)).isEqualTo(2);
    assertThat(Timeline.peak(times, 1_000)).isEqualTo(6);
  }

  @Test
  void gapsRatesAndCounts() {
    List<Long> times = List.of(1_000L, 1_100L, 1_500L, 2_000L);

    assertThat(Timeline.maxGap(times)).isEqualTo(500);
    assertThat(Timeline.rate(times)).isEqualTo(3.0);
    assertThat(Timeline.count(times, 1_100, 1_500)).isEqualTo(2);
    assertThat(Timeline.rate(List.of(5L))).isZero();
  }

  @Test
  void mostAtOnceDoesNotCountAnIntervalEndingAsAnotherStarts() {
    List<long[]> intervals =
        List.of(new long[] {0, 10}, new long[] {5, 20}, new long[] {10, 30}, new long[] {12, 13});

    assertThat(Timeline.mostAtOnce(intervals)).isEqualTo(3);
  }
}
