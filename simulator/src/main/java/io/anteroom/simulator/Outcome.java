package io.anteroom.simulator;

import io.anteroom.queue.policy.RoomPolicy;
import org.HdrHistogram.Histogram;

/**
 * What one run of a simulation gave.
 *
 * @param label the setting that tells this run from the others ({@code admit-per-second=50})
 * @param policy the room's settings of the run
 * @param arrived everyone who arrived
 * @param admitted those admitted while still there (at once or from the line)
 * @param atOnce those admitted at once, who never waited
 * @param abandoned those who gave up: finished by the line as gone, or admitted after they left
 * @param waits the waits of those admitted while still there, in milliseconds
 * @param longestLine the most people in line at once
 * @param peakActive the most sessions running at once
 * @param emptiedAfter when the line was empty after the last arrival, in ms from the start
 * @param timeline one sample a second
 * @param waitByArrival the mean wait (ms) of those who arrived in each slice of the arrivals' span,
 *     {@link Timeline#SLICES} slices; -1 where nobody of the slice was admitted
 */
public record Outcome(
    String label,
    RoomPolicy policy,
    long arrived,
    long admitted,
    long atOnce,
    long abandoned,
    Histogram waits,
    long longestLine,
    long peakActive,
    long emptiedAfter,
    Timeline timeline,
    long arrivalSpan,
    double[] waitByArrival) {

  /** A wait percentile in seconds; 0 when nobody waited. */
  public double waitSeconds(double percentile) {
    return waits.getTotalCount() == 0 ? 0 : waits.getValueAtPercentile(percentile) / 1000.0;
  }
}
