package io.anteroom.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The machine's CPU time counters from the first line of /proc/stat, in clock ticks (zero where it
 * is unreadable). Steal is time a virtual CPU was ready to run but the host ran something else; it
 * shows up inside Redis's per-command times, so the results file records how much there was.
 */
record CpuTimes(long steal, long total) {

  static CpuTimes read() {
    try {
      long[] ticks =
          Arrays.stream(Files.readAllLines(Path.of("/proc/stat")).get(0).split("\\s+"))
              .skip(1)
              .limit(8)
              .mapToLong(Long::parseLong)
              .toArray();
      return new CpuTimes(ticks.length == 8 ? ticks[7] : 0, Arrays.stream(ticks).sum());
    } catch (Exception e) {
      return new CpuTimes(0, 0);
    }
  }

  /** Percent of all CPU time since these counters that the host stole, or NaN if unknown. */
  double stealPercentSince() {
    CpuTimes now = read();
    long elapsed = now.total - total;
    return elapsed <= 0 ? Double.NaN : 100.0 * (now.steal - steal) / elapsed;
  }
}
