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

  /** A second queue for the general enqueue path, so both lines stay apart. */
  static final QueueId TICKETS = QueueId.of("bench", "tickets");

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
    // Loaded up front, so no measured call falls back to EVAL and compiles its script.
    for (LuaScript script : List.of(QueueScripts.ENQUEUE, QueueScripts.JOIN, QueueScripts.ADMIT)) {
      Await.result(commands.scriptLoad(script.source()));
    }
  }

  /**
   * Empties the bucket and stops the clock, so nobody is admitted at once and every enqueue takes
   * the script's "join the line" path. Call on a flushed server before a round.
   */
  void prepare() {
    clock.set(START);
    for (QueueId queue : List.of(QUEUE, TICKETS)) {
      Map<String, String> empty = Map.of("tokens", "0", "refill", "" + START.toEpochMilli());
      Await.result(commands.hset(keys.state(queue), empty));
    }
  }

  /** A1 slice: these newcomers join the line by {@code join.lua}, as minted ids do. */
  long join(List<String> visitors) {
    return InFlight.each(visitors, v -> store.join(QUEUE, v, policy).toFuture());
  }

  /**
   * A1 by {@code enqueue.lua}: the same newcomers join a second line by the path for ids that may
   * have been in the queue before (ticket holders).
   */
  long enqueue(List<String> visitors) {
    return InFlight.each(visitors, v -> store.enqueue(TICKETS, v, policy).toFuture());
  }

  /** A2 slice: one admission call a step later, which must admit a full batch or the rest. */
  long admit() {
    clock.advance(ADMIT_STEP);
    AdmitResult result = Await.result(store.admit(QUEUE, policy).toFuture());
    if (result.admitted() == 0 || result.abandoned() > 0) {
      throw new IllegalStateException("an admission call did not admit a batch: " + result);
    }
    return result.admitted();
  }

  /**
   * A2 clean-up: once the admitted visitors' seen entries are older than abandon-after, admission
   * calls trim them, one batch per call. Their cost belongs to those admissions, so it is measured
   * with them. One call (also with nothing left to trim, for its fixed cost); returns 0, the
   * visitors it admitted.
   */
  long trim() {
    Await.result(store.admit(QUEUE, policy).toFuture());
    return 0;
  }

  /** Whether seen still holds entries for {@link #trim} to remove. */
  boolean seenLeft() {
    return Await.result(commands.zcard(keys.seen(QUEUE))) > 0;
  }

  /** Moves the clock past abandon-after, so every seen entry is stale. */
  void ageSeen() {
    clock.advance(policy.abandonAfter().plusSeconds(1));
  }

  /**
   * Memory held by {@code visitors} waiting in line, everything the store writes included: the
   * growth of {@code used_memory} over joining them all on a flushed server.
   */
  long waitingBytes(List<String> visitors) {
    long before = usedMemory(commands);
    prepare();
    join(visitors);
    verify(visitors.size(), 0);
    return usedMemory(commands) - before;
  }

  /**
   * {@code used_memory} less the buffers of normal clients, which a pipelined phase leaves grown
   * for a while and which do not belong to the data.
   */
  static long usedMemory(RedisClusterAsyncCommands<String, String> commands) {
    String info = Await.result(commands.info("memory"));
    return field(info, "used_memory") - field(info, "mem_clients_normal");
  }

  private static long field(String info, String name) {
    return info.lines()
        .filter(l -> l.startsWith(name + ":"))
        .mapToLong(l -> Long.parseLong(l.substring(name.length() + 1).strip()))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("INFO memory without " + name));
  }

  /** Fails unless the line holds {@code waiting} and running holds {@code running} visitors. */
  void verify(long waiting, long running) {
    Await.expect("queue waiting", waiting, commands.zcard(keys.waiting(QUEUE)));
    Await.expect("queue running", running, commands.zcard(keys.running(QUEUE)));
  }
}
