package io.anteroom.bench.crowd;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Command-line settings of {@link CrowdBench}.
 *
 * @param visitors people waiting in the crowd's line at the end; default 1,000,000
 * @param burst new visitors of the burst, the first of the crowd, all through the gateway; default
 *     100,000
 * @param warmup joins on a separate queue first, at least, so the gateway's JIT is warm for the
 *     burst; default 100,000
 * @param maxWarmup joins on that queue at most, while the gateway keeps getting faster; default
 *     400,000
 * @param inFlight requests outstanding at once, each on its own connection; default 256
 * @param checkpoint visitors between two heap readings; default 100,000
 * @param gatewayBudget how long joins through the gateway may take after the warm-up, burst
 *     included; the rest of the crowd is written straight into Redis; default 6 minutes
 * @param samples waiting visitors whose status is polled at the end; default 1000
 * @param gatewayHeap the gateway's {@code -Xmx}; default {@code 512m}
 * @param out the Markdown results file; default {@code bench/results/crowd.md}
 * @param command how the run was started, for the results file
 */
record CrowdOptions(
    int visitors,
    int burst,
    int warmup,
    int maxWarmup,
    int inFlight,
    int checkpoint,
    Duration gatewayBudget,
    int samples,
    String gatewayHeap,
    Path out,
    String command) {

  static final String USAGE =
      "usage: crowd.sh [--visitors 1000000] [--burst 100000] [--warmup 100000] [--max-warmup 400000]"
          + " [--in-flight 256]"
          + " [--checkpoint 100000] [--gateway-budget 360] (seconds) [--samples 1000]"
          + " [--gateway-heap 512m] [--out bench/results/crowd.md]";

  CrowdOptions {
    require(burst >= 1, "--burst must be at least 1");
    require(visitors >= burst, "--visitors must be at least --burst");
    require(warmup >= 1, "--warmup must be at least 1");
    require(maxWarmup >= warmup, "--max-warmup must be at least --warmup");
    require(inFlight >= 1 && inFlight <= 4096, "--in-flight must be 1..4096");
    require(checkpoint >= 1, "--checkpoint must be at least 1");
    require(!gatewayBudget.isNegative(), "--gateway-budget must not be negative");
    require(samples >= 1, "--samples must be at least 1");
    require(gatewayHeap.matches("[1-9][0-9]*[kKmMgG]?"), "--gateway-heap is not a heap size");
  }

  /**
   * Parses {@code --name value} pairs. The command recorded in the results is the system property
   * {@code bench.command} when the launcher script sets it, else the Java invocation.
   */
  static CrowdOptions parse(String... args) {
    int visitors = 1_000_000;
    int burst = 100_000;
    int warmup = 100_000;
    int maxWarmup = 400_000;
    int inFlight = 256;
    int checkpoint = 100_000;
    int budget = 360;
    int samples = 1000;
    String heap = "512m";
    Path out = Path.of("bench", "results", "crowd.md");
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i];
      require(i + 1 < args.length, name + " needs a value\n" + USAGE);
      String value = args[i + 1];
      switch (name) {
        case "--visitors" -> visitors = number(name, value);
        case "--burst" -> burst = number(name, value);
        case "--warmup" -> warmup = number(name, value);
        case "--max-warmup" -> maxWarmup = number(name, value);
        case "--in-flight" -> inFlight = number(name, value);
        case "--checkpoint" -> checkpoint = number(name, value);
        case "--gateway-budget" -> budget = number(name, value);
        case "--samples" -> samples = number(name, value);
        case "--gateway-heap" -> heap = value;
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
      }
    }
    String command =
        System.getProperty(
            "bench.command",
            "java " + CrowdBench.class.getName() + " " + String.join(" ", Arrays.asList(args)));
    return new CrowdOptions(
        visitors,
        burst,
        warmup,
        Math.max(warmup, maxWarmup),
        inFlight,
        checkpoint,
        Duration.ofSeconds(budget),
        samples,
        heap,
        out,
        command.strip());
  }

  private static int number(String name, String value) {
    try {
      return Integer.parseInt(value.replace("_", "").replace(",", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " needs a whole number, got " + value, e);
    }
  }

  private static void require(boolean valid, String message) {
    if (!valid) {
      throw new IllegalArgumentException(message);
    }
  }
}
