package io.anteroom.bench.crowd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapTrendTests {

  private static final long MB = 1_000_000;

  @Test
  void ofWhenLiveBytesHoldStillThenTheHeapIsFlat() {
    HeapTrend trend =
        HeapTrend.of(
            List.of(
                reading(0, 0, 28 * MB),
                reading(100_000, 100_000, 30 * MB),
                reading(1_000_000, 1_000_000, 30 * MB + 50_000)));

    assertThat(trend.first().waiting()).isEqualTo(100_000);
    assertThat(trend.growthBytes()).isEqualTo(50_000);
    assertThat(trend.flat(1_000_000)).isTrue();
    assertThat(trend.conclusive()).isTrue();
  }

  @Test
  void ofWhenEachVisitorLeavesBytesBehindThenTheHeapGrows() {
    HeapTrend trend =
        HeapTrend.of(
            List.of(
                reading(100_000, 100_000, 30 * MB),
                reading(500_000, 500_000, 30 * MB + 400_000 * 64),
                reading(1_000_000, 1_000_000, 30 * MB + 900_000 * 64)));

    assertThat(trend.bytesPerVisitor()).isCloseTo(64, within(0.001));
    assertThat(trend.flat(1_000_000)).isFalse();
  }

  @Test
  void ofWhenASlowGrowthStaysUnderTheToleranceOverTheRunButNotOverTheCrowdThenItGrows() {
    HeapTrend trend =
        HeapTrend.of(
            List.of(reading(10_000, 10_000, 30 * MB), reading(20_000, 20_000, 30 * MB + 100_000)));

    assertThat(trend.growthBytes()).isLessThan(HeapTrend.TOLERANCE_BYTES);
    assertThat(trend.flat(1_000_000)).isFalse();
    assertThat(trend.conclusive()).isFalse();
  }

  @Test
  void ofWhenMostOfTheLineWasWrittenStraightIntoRedisThenItIsNotConclusive() {
    HeapTrend trend =
        HeapTrend.of(
            List.of(
                reading(100_000, 100_000, 30 * MB),
                reading(300_000, 300_000, 30 * MB),
                reading(1_000_000, 300_000, 30 * MB)));

    assertThat(trend.flat(1_000_000)).isTrue();
    assertThat(trend.conclusive()).isFalse();
    assertThat(trend.bytesPerGatewayVisitor()).isCloseTo(0, within(0.001));
  }

  private static HeapReading reading(long waiting, long viaGateway, long live) {
    return new HeapReading("r", waiting, viaGateway, live, live, live, Map.of("[B", live));
  }
}
