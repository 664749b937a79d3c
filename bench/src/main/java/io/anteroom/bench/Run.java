package io.anteroom.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A run as its launcher script started it: the options it parsed ({@code -Dbench.<option>}), its
 * command line, and the machine, for the results files.
 */
public final class Run {

  private Run() {}

  public static String option(String name) {
    String value = System.getProperty("bench." + name);
    if (value == null) {
      throw new IllegalStateException("no -Dbench." + name + ": run the tool with its bench/*.sh");
    }
    return value;
  }

  public static int number(String name) {
    return Integer.parseInt(option(name));
  }

  public static String command() {
    return System.getProperty("bench.command", "java (without its launcher script)");
  }

  /** CPUs, model, memory and kernel, as the launcher script's {@code machine_line} puts them. */
  public static String machine() {
    return System.getProperty("bench.machine", "unknown (run without its launcher script)");
  }

  public static String java() {
    return System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version");
  }

  /** The 1, 5 and 15 minute load averages of /proc/loadavg now, or "unknown". */
  public static String loadAverage() {
    try {
      return String.join(
          " ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** The machine's {steal, total} CPU ticks from /proc/stat; zeros where unreadable. */
  static long[] cpuTicks() {
    try {
      String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).split("\\s+");
      long[] ticks = Arrays.stream(fields).skip(1).limit(8).mapToLong(Long::parseLong).toArray();
      return new long[] {ticks[7], Arrays.stream(ticks).sum()};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }
}
