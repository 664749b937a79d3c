package io.anteroom.bench;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The queue model's side: enqueue and admit through {@link RedisQueueStore}, as the apps call it. */
final class QueuePhases {

  static final QueueId QUEUE = QueueId.of("bench", "item");

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /** One admission call a second refills exactly one batch of tokens. */
  private static final Duration ADMIT_STEP = Duration.ofSeconds(1);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ServerStats stats;
  private final QueueKeys keys = new QueueKeys("wr");
  private final SteppingClock clock = new SteppingClock(START);
  private final RedisQueueStore store;
  private final RoomPolicy policy;

  QueuePhases(RedisClusterAsyncCommands<String, String> commands, ServerStats stats, int batch) {
    this.commands = commands;
    this.stats = stats;
    this.store = new RedisQueueStore(commands, keys, clock);
    // Rate = batch per second with a one-second burst, so each ADMIT_STEP allows a full batch; no
    // cap on running and nobody abandons during the phase.
    this.policy =
        new RoomPolicy(
            batch,
            Duration.ofSeconds(1),
            Integer.MAX_VALUE,
            Duration.ofHours(1),
            Duration.ofDays(1),
            batch,
            Duration.ofHours(1));
  }

  /**
   * A1: every visitor joins one line whose bucket is empty and whose clock stands still, so nobody
   * is admitted at once and every call takes the script's "join the line" path.
   */
  PhaseResult enqueue(List<String> visitors, int inFlight) {
    clock.set(START);
    Await.result(
        commands.hset(
            keys.state(QUEUE),
            Map.of("tokens", "0", "refill", Long.toString(START.toEpochMilli()))));
    stats.reset();
    InFlight pipeline = new InFlight(inFlight);
    for (String visitor : visitors) {
      pipeline.submit(() -> store.enqueue(QUEUE, visitor, policy).toFuture());
    }
    pipeline.awaitAll();
    PhaseResult result = new PhaseResult(visitors.size(), stats.read());
    Await.expect("waiting after enqueue", visitors.size(), commands.zcard(keys.waiting(QUEUE)));
    return result;
  }

  /**
   * A2: admits the line left by {@link #enqueue} one full batch per call until it is empty. The
   * script time of each call is the difference of two stats reads, which gives the longest call
   * exactly; SLOWLOG would also log every command inside the script, and pay for that inside the
   * script's own time.
   */
  AdmitMeasurement admit(long waiting) {
    stats.reset();
    long admitted = 0;
    long longest = 0;
    long before = 0;
    int calls = 0;
    AdmitResult result;
    do {
      clock.advance(ADMIT_STEP);
      result = Await.result(store.admit(QUEUE, policy).toFuture());
      calls++;
      long after = stats.scriptUsec();
      longest = Math.max(longest, after - before);
      before = after;
      admitted += result.admitted();
      if (result.admitted() == 0 || result.abandoned() != 0) {
        throw new IllegalStateException("admit call " + calls + " did not admit a batch: " + result);
      }
    } while (result.waiting() > 0);
    if (admitted != waiting) {
      throw new IllegalStateException("admitted " + admitted + " of " + waiting + " waiting");
    }
    return new AdmitMeasurement(new PhaseResult(admitted, stats.read()), longest, calls);
  }

  /**
   * @param phase the stats of all admission calls; operations = visitors admitted
   * @param longestCallUsec server time of the slowest single admission call
   * @param calls admission calls made
   */
  record AdmitMeasurement(PhaseResult phase, long longestCallUsec, int calls) {}
}
