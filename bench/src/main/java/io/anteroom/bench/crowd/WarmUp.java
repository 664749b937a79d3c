package io.anteroom.bench.crowd;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The warm-up on its own line, slice by slice: it goes on past its minimum while the gateway keeps
 * getting faster, because a JIT still compiling the join path makes the burst slow and its Redis
 * calls time out.
 *
 * @param slices the slices of joins, in order
 */
record WarmUp(List<ChunkResult> slices) {

  /** A slice at least this much faster than every slice before means the JIT is still at work. */
  static final double STILL_WARMING = 1.10;

  /**
   * Whether another slice is due: below the maximum, and below the minimum or still speeding up.
   */
  static boolean goOn(List<ChunkResult> slices, int minimum, int maximum) {
    int joins = slices.stream().mapToInt(ChunkResult::joins).sum();
    if (joins >= maximum) {
      return false;
    }
    if (joins < minimum || slices.size() < 2) {
      return true;
    }
    double last = slices.get(slices.size() - 1).perSecond();
    double bestBefore =
        slices.subList(0, slices.size() - 1).stream()
            .mapToDouble(ChunkResult::perSecond)
            .max()
            .orElse(0);
    return last >= bestBefore * STILL_WARMING;
  }

  int joins() {
    return slices.stream().mapToInt(ChunkResult::joins).sum();
  }

  double firstRate() {
    return slices.get(0).perSecond();
  }

  double lastRate() {
    return slices.get(slices.size() - 1).perSecond();
  }

  /** People in the warm-up line afterwards. */
  long lineAfter() {
    return slices.get(slices.size() - 1).lineAfter();
  }

  /** Statuses of the answers that were not waiting answers, slice by slice, or "none". */
  String otherStatuses() {
    String others =
        slices.stream()
            .map(ChunkResult::otherStatuses)
            .filter(s -> !s.equals("none"))
            .collect(Collectors.joining("; "));
    return others.isEmpty() ? "none" : others;
  }
}
