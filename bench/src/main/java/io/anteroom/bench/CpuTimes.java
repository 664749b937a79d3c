package io.anteroom.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The machine's CPU time counters from the first line of /proc/stat, in clock ticks. Steal is time
 * a virtual CPU was ready to run but the host ran something else; it shows up inside Redis's
 * per-command times, so the results file records how much of it there was.
 *
 * @param steal ticks stolen by the host
 * @param total ticks of all kinds
 */
record CpuTimes(long steal, long total) {

  private static final int STEAL = 8;

  /** The counters now, or empty where /proc/stat is missing or unreadable. */
  static Optional<CpuTimes> read() {
    try {
      String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
      long[] ticks = Arrays.stream(cpu.split("\\s+")).skip(1).mapToLong(Long::parseLong).toArray();
      long total = Arrays.stream(ticks, 0, Math.min(ticks.length, STEAL)).sum();
      long steal = ticks.length >= STEAL ? ticks[STEAL - 1] : 0;
      return Optional.of(new CpuTimes(steal, total));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Percent of all CPU time since {@code before} that the host stole. */
  double stealPercentSince(CpuTimes before) {
    long elapsed = total - before.total;
    return elapsed <= 0 ? 0 : 100.0 * (steal - before.steal) / elapsed;
  }
}
