package io.anteroom.queue.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class HistorySampleTests {

  private static HistorySample at(long seconds, long admitted) {
    return new HistorySample(1_000_000 + seconds * 1000, 0, 0, 0, admitted);
  }

  @Test
  void perSecondWhenSamplesAreFiveSecondsApartThenDividesTheDifferenceByFive() {
    List<Double> rates =
        HistorySample.admittedPerSecond(List.of(at(0, 100), at(5, 110), at(10, 117)));

    assertThat(rates).containsExactly(null, 2.0, 1.4);
  }

  @Test
  void perSecondWhenSamplesAreMissingThenDividesByTheRealTimeBetweenThem() {
    List<Double> rates = HistorySample.admittedPerSecond(List.of(at(0, 0), at(5, 10), at(65, 40)));

    assertThat(rates.get(2)).as("30 admitted over 60 s, not over 5 s").isEqualTo(0.5);
  }

  @Test
  void perSecondWhenTheTotalDropsThenCountsNoAdmissions() {
    List<Double> rates =
        HistorySample.admittedPerSecond(List.of(at(0, 500), at(5, 20), at(10, 30)));

    assertThat(rates).containsExactly(null, 0.0, 2.0);
  }

  @Test
  void betweenWhenTheRateIsNotWholeThenKeepsTheFraction() {
    HistorySample first = new HistorySample(0, 0, 0, 0, 0);
    HistorySample second = new HistorySample(3_000, 0, 0, 0, 2);

    assertThat(second.admittedPerSecondSince(first)).isCloseTo(0.6667, within(0.0001));
  }

  @Test
  void betweenWhenTheLaterSampleIsNotLaterThenHasNoRate() {
    assertThat(at(5, 10).admittedPerSecondSince(at(5, 0))).isNull();
    assertThat(at(5, 10).admittedPerSecondSince(at(10, 0))).isNull();
  }

  @Test
  void perSecondWhenThereIsNoSampleBeforeThenHasNoRate() {
    assertThat(HistorySample.admittedPerSecond(List.of())).isEmpty();
    assertThat(HistorySample.admittedPerSecond(List.of(at(0, 7)))).containsExactly((Double) null);
  }
}
