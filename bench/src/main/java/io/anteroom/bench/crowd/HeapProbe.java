package io.anteroom.bench.crowd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the gateway's live heap with {@code jcmd}: {@code GC.class_histogram} runs a full
 * collection and counts what survived, class by class; {@code GC.heap_info} then tells the heap in
 * use after it. The load is stopped while it reads.
 */
final class HeapProbe {

  private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
  private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)");
  private static final Pattern USED = Pattern.compile("used (\\d+)K");
  private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");
  private static final Pattern HEAP_NAME = Pattern.compile("^\\s*([a-z-]+(?: [a-z-]+)*) +total");

  private final long pid;

  HeapProbe(long pid) {
    this.pid = pid;
  }

  HeapReading read(String label, long waiting, long viaGateway) {
    Map<String, Long> classes = new HashMap<>();
    long live = -1;
    for (String line : jcmd("GC.class_histogram")) {
      Matcher row = ROW.matcher(line);
      Matcher total = TOTAL.matcher(line);
      if (row.find()) {
        classes.merge(row.group(3), Long.parseLong(row.group(2)), Long::sum);
      } else if (total.find()) {
        live = Long.parseLong(total.group(2));
      }
    }
    if (live < 0) {
      throw new IllegalStateException("jcmd " + pid + " GC.class_histogram printed no total");
    }
    // Every line before Metaspace describes the Java heap (one for G1, one per generation for
    // Serial and Parallel); their "used" figures add up to the heap in use.
    long used = 0;
    for (String line : jcmd("GC.heap_info")) {
      if (line.strip().startsWith("Metaspace")) {
        break;
      }
      Matcher m = USED.matcher(line);
      used += HEAP_NAME.matcher(line).find() && m.find() ? Long.parseLong(m.group(1)) * 1024 : 0;
    }
    return new HeapReading(label, waiting, viaGateway, live, used, rss(), classes);
  }

  /** The collector's name as {@code GC.heap_info} prints it, e.g. "garbage-first heap". */
  String collector() {
    return jcmd("GC.heap_info").stream()
        .map(HEAP_NAME::matcher)
        .filter(Matcher::find)
        .map(m -> m.group(1))
        .findFirst()
        .orElse("unknown");
  }

  private long rss() {
    try {
      Matcher m = RSS.matcher(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
      return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  private List<String> jcmd(String command) {
    try {
      Process process =
          new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(
            "jcmd " + pid + " " + command + " failed: " + new String(out, StandardCharsets.UTF_8));
      }
      return new String(out, StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run jcmd (it comes with the JDK)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while jcmd ran", e);
    }
  }
}
