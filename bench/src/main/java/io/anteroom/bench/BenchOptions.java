package io.anteroom.bench;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * Command-line settings of {@link QueueRedisBench}.
 *
 * @param rounds measured rounds; default 5
 * @param warmup rounds run first and thrown away; default 1
 * @param visitors visitors enqueued and admitted per phase; default 20000
 * @param batch visitors per admission call; default 100, the policy default
 * @param slice visitors per measured enqueue slice; the two sides take turns slice by slice;
 *     default 1000
 * @param inFlight most pipelined commands outstanding; default 256
 * @param out the Markdown results file; default {@code bench/results/queue-redis.md}
 * @param command how the run was started, for the results file
 */
record BenchOptions(
    int rounds,
    int warmup,
    int visitors,
    int batch,
    int slice,
    int inFlight,
    Path out,
    String command) {

  static final String USAGE =
      "usage: QueueRedisBench [--rounds 5] [--warmup 1] [--visitors 20000] [--batch 100]"
          + " [--slice 1000] [--in-flight 256] [--out bench/results/queue-redis.md]";

  BenchOptions {
    require(rounds >= 1, "--rounds must be at least 1");
    require(warmup >= 0, "--warmup must not be negative");
    require(visitors >= 1, "--visitors must be at least 1");
    require(batch >= 1 && batch <= 5000, "--batch must be 1..5000 (the policy's limit)");
    require(slice >= 1, "--slice must be at least 1");
    require(inFlight >= 1, "--in-flight must be at least 1");
  }

  /**
   * Parses {@code --name value} pairs. The command recorded in the results is the system property
   * {@code bench.command} when the launcher script sets it, else the Java invocation.
   */
  static BenchOptions parse(String... args) {
    int rounds = 5;
    int warmup = 1;
    int visitors = 20_000;
    int batch = 100;
    int slice = 1000;
    int inFlight = 256;
    Path out = Path.of("bench", "results", "queue-redis.md");
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i];
      require(i + 1 < args.length, name + " needs a value\n" + USAGE);
      String value = args[i + 1];
      switch (name) {
        case "--rounds" -> rounds = number(name, value);
        case "--warmup" -> warmup = number(name, value);
        case "--visitors" -> visitors = number(name, value);
        case "--batch" -> batch = number(name, value);
        case "--slice" -> slice = number(name, value);
        case "--in-flight" -> inFlight = number(name, value);
        case "--out" -> out = Path.of(value);
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
      }
    }
    String command =
        System.getProperty(
            "bench.command",
            "java "
                + QueueRedisBench.class.getName()
                + " "
                + String.join(" ", Arrays.asList(args)));
    return new BenchOptions(rounds, warmup, visitors, batch, slice, inFlight, out, command.strip());
  }

  private static int number(String name, String value) {
    try {
      return Integer.parseInt(value.replace("_", ""));
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
