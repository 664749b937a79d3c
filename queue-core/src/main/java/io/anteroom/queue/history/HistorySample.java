package io.anteroom.queue.history;

import java.util.ArrayList;
import java.util.List;

/**
 * A room's line at one moment: the sums over its active queues.
 *
 * @param at start of the sample's interval (epoch ms)
 * @param waiting people in line
 * @param running admitted sessions
 * @param finished finished entries within the retention time
 * @param admitted visitors admitted over the lifetime of the active queues; the difference between
 *     two samples is the admissions in between, unless a queue was turned off (the sum then drops)
 */
public record HistorySample(long at, long waiting, long running, long finished, long admitted) {

  /**
   * The admissions per second up to each of {@code samples} (oldest first) from the one before it;
   * null for the first, which has none.
   */
  public static List<Double> admittedPerSecond(List<HistorySample> samples) {
    List<Double> rates = new ArrayList<>(samples.size());
    for (int i = 0; i < samples.size(); i++) {
      rates.add(i == 0 ? null : samples.get(i).admittedPerSecondSince(samples.get(i - 1)));
    }
    return rates;
  }

  /**
   * Admissions per second from {@code previous} to this sample: the difference of the totals over
   * the real time between them, longer than an interval where no worker ran. At least 0: a total
   * that drops (turning a queue off takes its admissions out of the sum) counts as no admissions,
   * so admissions of other queues in that interval are not shown. Null when this sample is not
   * later than {@code previous}.
   */
  public Double admittedPerSecondSince(HistorySample previous) {
    long millis = at - previous.at;
    if (millis <= 0) {
      return null;
    }
    return Math.max(0, admitted - previous.admitted) * 1000.0 / millis;
  }

  /** The stored form, {@code at:waiting:running:finished:admitted}. */
  String encode() {
    return at + ":" + waiting + ":" + running + ":" + finished + ":" + admitted;
  }

  /** The sample stored as {@code member}, or null when it is not one (written by hand). */
  static HistorySample decode(String member) {
    String[] parts = member.split(":", -1);
    if (parts.length != 5) {
      return null;
    }
    try {
      return new HistorySample(
          Long.parseLong(parts[0]),
          Long.parseLong(parts[1]),
          Long.parseLong(parts[2]),
          Long.parseLong(parts[3]),
          Long.parseLong(parts[4]));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
