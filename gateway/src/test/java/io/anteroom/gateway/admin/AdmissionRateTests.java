package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.history.HistorySample;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionRateTests {

  private static HistorySample at(long seconds, long admitted) {
    return new HistorySample(1_000_000 + seconds * 1000, 0, 0, 0, admitted);
  }

  @Test
  void perSecondWhenSamplesAreFiveSecondsApartThenDividesTheDifferenceByFive() {
    List<Double> rates = AdmissionRate.perSecond(List.of(at(0, 100), at(5, 110), at(10, 117)));

    assertThat(rates).containsExactly(null, 2.0, 1.4);
  }

  @Test
  void perSecondWhenSamplesAreMissingThenDividesByTheRealTimeBetweenThem() {
    List<Double> rates = AdmissionRate.perSecond(List.of(at(0, 0), at(5, 10), at(65, 40)));

    assertThat(rates.get(2)).as("30 admitted over 60 s, not over 5 s").isEqualTo(0.5);
  }

  @Test
  void perSecondWhenTheTotalDropsThenCountsNoAdmissions() {
    List<Double> rates = AdmissionRate.perSecond(List.of(at(0, 500), at(5, 20), at(10, 30)));

    assertThat(rates).containsExactly(null, 0.0, 2.0);
  }

  @Test
  void betweenWhenTheRateIsNotWholeThenKeepsTheFraction() {
    HistorySample first = new HistorySample(0, 0, 0, 0, 0);
    HistorySample second = new HistorySample(3_000, 0, 0, 0, 2);

    assertThat(AdmissionRate.between(first, second)).isCloseTo(0.6667, within(0.0001));
  }

  @Test
  void betweenWhenTheLaterSampleIsNotLaterThenHasNoRate() {
    assertThat(AdmissionRate.between(at(5, 0), at(5, 10))).isNull();
    assertThat(AdmissionRate.between(at(10, 0), at(5, 10))).isNull();
  }

  @Test
  void perSecondWhenThereIsNoSampleBeforeThenHasNoRate() {
    assertThat(AdmissionRate.perSecond(List.of())).isEmpty();
    assertThat(AdmissionRate.perSecond(List.of(at(0, 7)))).containsExactly((Double) null);
  }
}
