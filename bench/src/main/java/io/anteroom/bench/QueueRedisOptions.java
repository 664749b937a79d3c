package io.anteroom.bench;

import java.nio.file.Path;

/**
 * Settings of {@link QueueRedisBench}, with the defaults of {@link #USAGE}.
 *
 * @param rounds measured rounds
 * @param warmup rounds run first and thrown away
 * @param visitors visitors enqueued and admitted per phase
 * @param batch visitors per admission call; the policy's default {@code admit-batch}
 * @param slice visitors per measured enqueue slice; the two sides take turns slice by slice
 * @param inFlight most pipelined commands outstanding
 * @param out the Markdown results file
 */
record QueueRedisOptions(
    int rounds, int warmup, int visitors, int batch, int slice, int inFlight, Path out) {

  static final String USAGE =
      "usage: bench/queue-redis.sh [--rounds 5] [--warmup 1] [--visitors 20000] [--batch 100]"
          + " [--slice 1000] [--in-flight 256] [--out bench/results/queue-redis.md]";

  static QueueRedisOptions parse(String... args) {
    return Args.parse(
        USAGE,
        args,
        a -> {
          int batch = a.number("--batch", 1);
          Args.require(batch <= 5000, "--batch must be 1..5000 (the policy's limit)");
          return new QueueRedisOptions(
              a.number("--rounds", 1),
              a.number("--warmup", 0),
              a.number("--visitors", 1),
              batch,
              a.number("--slice", 1),
              a.number("--in-flight", 1),
              Path.of(a.text("--out")));
        });
  }
}
