package io.anteroom.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the numbers were measured on.
 *
 * @param processors what {@code nproc} prints
 * @param cpuModel the first {@code model name} of /proc/cpuinfo
 * @param memory total memory from /proc/meminfo, in GiB
 * @param java the Java runtime's vendor and version
 * @param loadAverage the 1, 5 and 15 minute load averages of /proc/loadavg when probed
 */
public record MachineInfo(
    String processors, String cpuModel, String memory, String java, String loadAverage) {

  public static MachineInfo probe() {
    return new MachineInfo(
        nproc(),
        procField("/proc/cpuinfo", "model name").orElse("unknown"),
        procField("/proc/meminfo", "MemTotal").map(MachineInfo::gib).orElse("unknown"),
        System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
        currentLoadAverage());
  }

  private static String nproc() {
    try {
      Process process = new ProcessBuilder("nproc").redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() == 0) {
        return out.strip();
      }
    } catch (IOException e) {
      // No nproc on this system: fall back to what the JVM sees.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Integer.toString(Runtime.getRuntime().availableProcessors());
  }

  /** CPUs, model, memory and kernel, in one phrase. */
  public String description() {
    return processors
        + " CPUs, "
        + cpuModel
        + ", "
        + memory
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.version");
  }

  /** The 1, 5 and 15 minute load averages of /proc/loadavg now, or "unknown". */
  public static String currentLoadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static Optional<String> procField(String file, String field) {
    try {
      List<String> lines = Files.readAllLines(Path.of(file));
      return lines.stream()
          .filter(l -> l.startsWith(field))
          .map(l -> l.substring(l.indexOf(':') + 1).strip())
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String gib(String memTotal) {
    long kib = Long.parseLong(memTotal.replaceAll("[^0-9]", ""));
    return String.format(Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
  }
}
