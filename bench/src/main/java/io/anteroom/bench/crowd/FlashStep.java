package io.anteroom.bench.crowd;

import java.util.Locale;

/**
 * What one step of the flash crowd measured, as figures that outlive the tool's run: {@code
 * flash.sh} runs the tool once per cold step (each on a gateway just started) and once for the warm
 * ladder, and each run adds its steps to one file, a tab-separated line each.
 *
 * @param phase cold, warm-up or warm
 * @param pollsPerSecond polls answered over the step's arrivals and the hold after them
 * @param pollInterval the mean {@code pollAfterSeconds} the gateway asked for, 0 for none
 */
record FlashStep(
    String phase,
    int perSecond,
    long joins,
    double joinP50Ms,
    double joinP99Ms,
    double joinMaxMs,
    double pollsPerSecond,
    double pollInterval,
    double pollP99Ms,
    long atOnce,
    long admittedAfterWaiting,
    long joinErrors,
    long pollErrors,
    String firstError,
    double gatewayCores,
    double redisCores,
    double toolCores) {

  static final double HELD_P99_MS = 500;

  static FlashStep of(
      String phase,
      int perSecond,
      int seconds,
      OpenLoop.Result r,
      double gatewayCores,
      double redisCores,
      double toolCores) {
    return new FlashStep(
        phase,
        perSecond,
        r.joinsDue,
        r.joins.getValueAtPercentile(50) / 1000.0,
        r.joins.getValueAtPercentile(99) / 1000.0,
        r.joins.getMaxValue() / 1000.0,
        r.polls.getTotalCount() / (double) seconds,
        r.pollsAsked == 0 ? 0 : r.pollAfterSum / (double) r.pollsAsked,
        r.polls.getTotalCount() == 0 ? 0 : r.polls.getValueAtPercentile(99) / 1000.0,
        r.atOnce,
        r.admittedAfterWaiting,
        r.joinErrors,
        r.pollErrors,
        r.firstError == null ? "" : r.firstError,
        gatewayCores,
        redisCores,
        toolCores);
  }

  /** Every join and poll answered as it should be, and the joins' p99 under 500 ms. */
  boolean held() {
    return joinErrors + pollErrors == 0 && joinP99Ms < HELD_P99_MS;
  }

  String line() {
    return String.join(
        "\t",
        phase,
        Integer.toString(perSecond),
        Long.toString(joins),
        num(joinP50Ms),
        num(joinP99Ms),
        num(joinMaxMs),
        num(pollsPerSecond),
        num(pollInterval),
        num(pollP99Ms),
        Long.toString(atOnce),
        Long.toString(admittedAfterWaiting),
        Long.toString(joinErrors),
        Long.toString(pollErrors),
        num(gatewayCores),
        num(redisCores),
        num(toolCores),
        firstError.replaceAll("[\t\r\n]", " "));
  }

  static FlashStep parse(String line) {
    String[] f = line.split("\t", 17);
    if (f.length < 16) {
      throw new IllegalArgumentException("not a flash step: " + line);
    }
    return new FlashStep(
        f[0],
        Integer.parseInt(f[1]),
        Long.parseLong(f[2]),
        Double.parseDouble(f[3]),
        Double.parseDouble(f[4]),
        Double.parseDouble(f[5]),
        Double.parseDouble(f[6]),
        Double.parseDouble(f[7]),
        Double.parseDouble(f[8]),
        Long.parseLong(f[9]),
        Long.parseLong(f[10]),
        Long.parseLong(f[11]),
        Long.parseLong(f[12]),
        f.length > 16 ? f[16] : "",
        Double.parseDouble(f[13]),
        Double.parseDouble(f[14]),
        Double.parseDouble(f[15]));
  }

  private static String num(double value) {
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
