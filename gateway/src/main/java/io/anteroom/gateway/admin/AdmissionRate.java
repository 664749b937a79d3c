package io.anteroom.gateway.admin;

import io.anteroom.queue.history.HistorySample;
import java.util.ArrayList;
import java.util.List;

/**
 * Admissions per second between consecutive {@link HistorySample}s, for the admin page's chart.
 * Samples carry lifetime totals, so a rate is the difference of two totals over the time between
 * them: the real time, since a sample is missing for every interval in which no worker ran. A total
 * that drops (turning a queue off takes its admissions out of the sum) counts as no admissions
 * rather than as a negative rate; admissions of other queues in that interval are then not shown.
 */
final class AdmissionRate {

  private AdmissionRate() {}

  /**
   * The rate up to each sample of {@code samples} (oldest first) from the one before it; null for
   * the first, which has none.
   */
  static List<Double> perSecond(List<HistorySample> samples) {
    List<Double> rates = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      rates.add(i == 0 ? null : between(samples.get(i - 1), samples.get(i)));
    }
    return rates;
  }

  /**
   * Admissions per second from {@code previous} to {@code next}, at least 0; null when {@code next}
   * is not later than {@code previous}.
   */
  static Double between(HistorySample previous, HistorySample next) {
    long millis = next.at() - previous.at();
    if (millis <= 0) {
      return null;
    }
    long admitted = Math.max(0, next.admitted() - previous.admitted());
    return admitted * 1000.0 / millis;
  }
}
