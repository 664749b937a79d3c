package io.anteroom.gateway.scale;

import java.util.ArrayList;
import java.util.List;

/** Counting over sorted moments (epoch ms): windows, gaps, rates, overlaps. */
final class Timeline {

  private Timeline() {}

  /** Most admissions in any window [t, t + windowMs] of sorted times. */
  static int peak(List<Long> times, long windowMs) {
    int peak = 0;
    int end = 0;
    for (int start = 0; start < times.size(); start++) {
      while (end < times.size() && times.get(end) <= times.get(start) + windowMs) {
        end++;
      }
      peak = Math.max(peak, end - start);
    }
    return peak;
  }

  /** Most of the intervals {from, to} that overlap at one moment. */
  static int mostAtOnce(List<long[]> intervals) {
    List<long[]> edges = new ArrayList<>();
    for (long[] interval : intervals) {
      edges.add(new long[] {interval[0], 1});
      edges.add(new long[] {interval[1], -1});
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int open = 0;
    int most = 0;
    for (long[] edge : edges) {
      open += (int) edge[1];
      most = Math.max(most, open);
    }
    return most;
  }

  static int count(List<Long> times, long from, long to) {
    return (int) times.stream().filter(t -> t >= from && t <= to).count();
  }

  static long maxGap(List<Long> times) {
    long gap = 0;
    for (int i = 1; i < times.size(); i++) {
      gap = Math.max(gap, times.get(i) - times.get(i - 1));
    }
    return gap;
  }

  /** Admissions a second from the first to the last of sorted times. */
  static double rate(List<Long> times) {
    if (times.size() < 2) {
      return 0;
    }
    return (times.size() - 1) * 1000.0 / (times.get(times.size() - 1) - times.get(0));
  }
}
