package io.anteroom.bench.crowd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Whether the gateway's live heap grows with the line: from the first reading with people waiting
 * (after the burst) to the last, and as the least-squares slope over those readings.
 *
 * @param first the reading after the burst
 * @param last the last reading
 * @param growthBytes live bytes of the last reading minus the first
 * @param bytesPerVisitor slope of live bytes against people waiting
 * @param bytesPerGatewayVisitor slope against people who joined through the gateway, over the
 *     readings while they did
 * @param growingClasses the classes whose live bytes grew most from first to last
 */
record HeapTrend(
    HeapReading first,
    HeapReading last,
    long growthBytes,
    double bytesPerVisitor,
    double bytesPerGatewayVisitor,
    List<Map.Entry<String, Long>> growingClasses) {

  /** Growth allowed from the first to the last reading for "flat": 5 MB. */
  static final long TOLERANCE_BYTES = 5_000_000;

  static HeapTrend of(List<HeapReading> readings) {
    List<HeapReading> waiting = readings.stream().filter(r -> r.waiting() > 0).toList();
    if (waiting.size() < 2) {
      throw new IllegalStateException("need two heap readings with people waiting");
    }
    HeapReading first = waiting.get(0);
    HeapReading last = waiting.get(waiting.size() - 1);
    List<HeapReading> joining = new ArrayList<>();
    for (HeapReading r : waiting) {
      if (joining.isEmpty() || r.viaGateway() > joining.get(joining.size() - 1).viaGateway()) {
        joining.add(r);
      }
    }
    return new HeapTrend(
        first,
        last,
        last.liveBytes() - first.liveBytes(),
        slope(waiting, HeapReading::waiting),
        joining.size() < 2 ? Double.NaN : slope(joining, HeapReading::viaGateway),
        growing(first.classes(), last.classes(), 8));
  }

  /** Fewer people than this between the first and last reading cannot tell a slope from noise. */
  static final long ENOUGH_VISITORS = 500_000;

  /**
   * Flat: less than {@link #TOLERANCE_BYTES} of growth from the first reading to the last, and a
   * slope that would not reach it over {@code visitors} either.
   */
  boolean flat(long visitors) {
    return growthBytes < TOLERANCE_BYTES && bytesPerVisitor * visitors < TOLERANCE_BYTES;
  }

  /**
   * Whether enough visitors joined through the gateway between the first and last reading for the
   * verdict to mean something: those written straight into Redis cannot leave state behind in it.
   */
  boolean conclusive() {
    return last.viaGateway() - first.viaGateway() >= ENOUGH_VISITORS;
  }

  private static double slope(
      List<HeapReading> readings, java.util.function.ToLongFunction<HeapReading> x) {
    double n = readings.size();
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (HeapReading r : readings) {
      double xi = x.applyAsLong(r);
      double yi = r.liveBytes();
      sx += xi;
      sy += yi;
      sxx += xi * xi;
      sxy += xi * yi;
    }
    double denominator = n * sxx - sx * sx;
    return denominator == 0 ? Double.NaN : (n * sxy - sx * sy) / denominator;
  }

  private static List<Map.Entry<String, Long>> growing(
      Map<String, Long> before, Map<String, Long> after, int top) {
    return after.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted(Comparator.comparing(Map.Entry<String, Long>::getValue).reversed())
        .limit(top)
        .toList();
  }
}
