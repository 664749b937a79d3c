package io.anteroom.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the numbers were measured on, for the results files. */
public final class Machine {

  private Machine() {}

  /** CPUs, model, memory and kernel, as the launcher script's {@code machine_line} puts them. */
  public static String description() {
    return System.getProperty("bench.machine", "unknown (run without its launcher script)");
  }

  public static String java() {
    return System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version");
  }

  /** The 1, 5 and 15 minute load averages of /proc/loadavg now, or "unknown". */
  public static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
