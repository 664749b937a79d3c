package io.anteroom.bench.crowd;

import java.util.Arrays;

/**
 * Percentiles of request times, in milliseconds, nearest rank.
 *
 * @param p50 median
 * @param p99 99th percentile
 * @param max slowest
 */
record Latencies(double p50, double p99, double max) {

  static Latencies of(long[] nanos) {
    if (nanos.length == 0) {
      return new Latencies(0, 0, 0);
    }
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return new Latencies(
        ms(rank(sorted, 0.50)), ms(rank(sorted, 0.99)), ms(sorted[sorted.length - 1]));
  }

  private static long rank(long[] sorted, double p) {
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
