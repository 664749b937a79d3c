package io.anteroom.bench;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.LuaScript;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.testing.MutableClock;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Side A, the queue model: enqueue and admit through {@link RedisQueueStore}, as the apps call
 * them, on one queue.
 */
final class QueuePhases {

  static final QueueId QUEUE = QueueId.of("bench", "item");

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /** One admission call a second refills exactly one batch of tokens. */
  private static final Duration ADMIT_STEP = Duration.ofSeconds(1);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final MutableClock clock = new MutableClock(START);
  private final RedisQueueStore store;
  private final RoomPolicy policy;

  QueuePhases(RedisClusterAsyncCommands<String, String> commands, int batch) {
    this.commands = commands;
    this.store = new RedisQueueStore(commands, keys, clock);
    // Rate = batch per second with a one-second burst, so each ADMIT_STEP allows a full batch; no
    // cap on running, and nobody is abandoned within a run.
    this.policy =
        new RoomPolicy(
            batch,
            Duration.ofSeconds(1),
            Integer.MAX_VALUE,
            Duration.ofHours(1),
            Duration.ofDays(1),
            batch,
            Duration.ofHours(1));
    load(QueueScripts.ENQUEUE);
    load(QueueScripts.ADMIT);
  }

  /**
   * Empties the bucket and stops the clock, so nobody is admitted at once and every enqueue takes
   * the script's "join the line" path. Call on a flushed server before a round.
   */
  void prepare() {
    clock.set(START);
    Await.result(
        commands.hset(
            keys.state(QUEUE),
            Map.of("tokens", "0", "refill", Long.toString(START.toEpochMilli()))));
  }

  /** A1 slice: these visitors join the line, pipelined; returns how many. */
  long enqueue(List<String> visitors, int inFlight) {
    InFlight pipeline = new InFlight(inFlight);
    for (String visitor : visitors) {
      pipeline.submit(() -> store.enqueue(QUEUE, visitor, policy).toFuture());
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /** A2 slice: one admission call a step later, which must admit a full batch or the rest. */
  long admit() {
    clock.advance(ADMIT_STEP);
    AdmitResult result = Await.result(store.admit(QUEUE, policy).toFuture());
    if (result.admitted() == 0 || result.abandoned() != 0) {
      throw new IllegalStateException("an admission call did not admit a batch: " + result);
    }
    return result.admitted();
  }

  /** Fails unless the line holds {@code waiting} and running holds {@code running} visitors. */
  void verify(long waiting, long running) {
    Await.expect("queue waiting", waiting, commands.zcard(keys.waiting(QUEUE)));
    Await.expect("queue running", running, commands.zcard(keys.running(QUEUE)));
  }

  /** Loads a script up front, so no measured call falls back to EVAL and compiles it. */
  private void load(LuaScript script) {
    String sha = Await.result(commands.scriptLoad(script.source()));
    if (!sha.equals(script.sha())) {
      throw new IllegalStateException(
          script.name() + ": server SHA " + sha + " != " + script.sha());
    }
  }
}
