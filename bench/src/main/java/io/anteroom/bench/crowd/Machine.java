package io.anteroom.bench.crowd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the run was measured on, for the results file.
 *
 * @param description CPUs, model, memory and kernel
 * @param java the Java runtime's version
 * @param loadAverage /proc/loadavg's 1, 5 and 15 minute averages when probed
 */
record Machine(String description, String java, String loadAverage) {

  static Machine probe() {
    String model = field("/proc/cpuinfo", "model name");
    String memKib = field("/proc/meminfo", "MemTotal").replaceAll("[^0-9]", "");
    String memory =
        memKib.isEmpty()
            ? "unknown memory"
            : String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(memKib) / 1048576.0);
    String description =
        Runtime.getRuntime().availableProcessors()
            + " CPUs, "
            + model
            + ", "
            + memory
            + ", "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.version");
    return new Machine(
        description,
        System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
        currentLoadAverage());
  }

  static String currentLoadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static String field(String file, String name) {
    try {
      return Files.readAllLines(Path.of(file)).stream()
          .filter(l -> l.startsWith(name))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
