package io.anteroom.bench.crowd;

import io.anteroom.bench.Args;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of {@link CrowdBench}, with the defaults of {@link #USAGE}.
 *
 * @param visitors people waiting in the crowd's line at the end
 * @param burst new visitors of the burst, the first of the crowd, all through the gateway
 * @param warmup joins on a separate queue first, at least, so the gateway's JIT is warm for the
 *     burst
 * @param maxWarmup joins on that queue at most, while the gateway keeps getting faster
 * @param inFlight requests outstanding at once, each on its own connection
 * @param checkpoint visitors between two heap readings
 * @param gatewayBudget how long joins through the gateway may take after the warm-up, burst
 *     included; the rest of the crowd is written straight into Redis
 * @param samples waiting visitors whose status is polled at the end
 * @param out the Markdown results file
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
    Path out) {

  static final String USAGE =
      "usage: bench/crowd.sh [--visitors 1000000] [--burst 100000] [--warmup 100000]"
          + " [--max-warmup 400000] [--in-flight 256] [--checkpoint 100000]"
          + " [--gateway-budget 360] (seconds) [--samples 1000] [--out bench/results/crowd.md]";

  static CrowdOptions parse(String... args) {
    return Args.parse(
        USAGE,
        args,
        a -> {
          int burst = a.number("--burst", 1);
          int warmup = a.number("--warmup", 1);
          int inFlight = a.number("--in-flight", 1);
          Args.require(inFlight <= 4096, "--in-flight must be 1..4096");
          return new CrowdOptions(
              a.number("--visitors", burst),
              burst,
              warmup,
              Math.max(warmup, a.number("--max-warmup", 1)),
              inFlight,
              a.number("--checkpoint", 1),
              Duration.ofSeconds(a.number("--gateway-budget", 0)),
              a.number("--samples", 1),
              Path.of(a.text("--out")));
        });
  }
}
