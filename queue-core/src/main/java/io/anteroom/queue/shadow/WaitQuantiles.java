package io.anteroom.queue.shadow;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;

/**
 * The median and 90th percentile of a virtual line's recent waits (nearest rank), and how many
 * waits they are over; both zero when there are none.
 */
public record WaitQuantiles(Duration p50, Duration p90, int count) {

  public static final WaitQuantiles NONE = new WaitQuantiles(Duration.ZERO, Duration.ZERO, 0);

  /** The quantiles of {@code waitsMs}, in milliseconds, in any order. */
  public static WaitQuantiles of(Collection<Long> waitsMs) {
    if (waitsMs.isEmpty()) {
      return NONE;
    }
    long[] sorted = waitsMs.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return new WaitQuantiles(at(sorted, 0.5), at(sorted, 0.9), sorted.length);
  }

  private static Duration at(long[] sorted, double quantile) {
    int rank = (int) Math.ceil(quantile * sorted.length);
    return Duration.ofMillis(sorted[Math.max(0, rank - 1)]);
  }
}
