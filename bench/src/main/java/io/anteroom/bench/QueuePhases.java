package io.anteroom.bench;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.LuaScript;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Side A, the queue model: enqueue and admit through {@link RedisQueueStore}, as the apps call
 * them, on one queue. Between admission calls, unmeasured, {@code expire.lua} ends the sessions
 * idle for longer than {@link #SESSION} and the room's check drops its users idle as long, as the
 * worker does each tick, so the running set and the room's users stay at the size of steady
 * service; {@link #growing} keeps every session instead.
 */
final class QueuePhases {

  static final QueueId QUEUE = QueueId.of("bench", "item");

  /** The one queue whose sessions never end, in a room of its own; see {@link #growing}. */
  static final QueueId GROWN = QueueId.of("grown", "item");

  /**
   * Session duration while admitting: an idle limit of 39.6 s (this and a tenth, {@link
   * RoomPolicy#sessionIdleLimit}) at one call of one batch a second leaves 39 batches running
   * before each call and 40 after it, 3,900–4,000 sessions with a batch of 100: well under the
   * 8,192 members at which Redis doubles a sorted set's hash table (then 16,384), which a running
   * set of steady service does not keep passing. Finished entries are kept as long.
   */
  static final Duration SESSION = Duration.ofSeconds(36);

  /** A second queue for the general enqueue path, so both lines stay apart. */
  static final QueueId TICKETS = QueueId.of("bench", "tickets");

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /** One admission call a second refills exactly one batch of tokens. */
  private static final Duration ADMIT_STEP = Duration.ofSeconds(1);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final MutableClock clock = new MutableClock(START);
  private final RedisQueueStore store;
  private final RedisRoomStore rooms;
  private final QueueId queue;
  private final RoomPolicy policy;
  private final boolean sessionsEnd;
  private long ended;

  QueuePhases(RedisClusterAsyncCommands<String, String> commands, int batch) {
    this(commands, batch, QUEUE, SESSION, true);
  }

  /**
   * The one queue as the bench admitted before: on {@link #GROWN}, sessions outlast the run and
   * nobody ends them, so the running set and the room's sessions grow to every visitor of the run,
   * through 8,192 and 16,384 members. Only admits.
   */
  static QueuePhases growing(RedisClusterAsyncCommands<String, String> commands, int batch) {
    return new QueuePhases(commands, batch, GROWN, Duration.ofDays(1), false);
  }

  private QueuePhases(
      RedisClusterAsyncCommands<String, String> commands,
      int batch,
      QueueId queue,
      Duration session,
      boolean sessionsEnd) {
    this.commands = commands;
    this.store = new RedisQueueStore(commands, keys, clock);
    this.rooms = new RedisRoomStore(commands, keys, clock);
    this.queue = queue;
    this.sessionsEnd = sessionsEnd;
    // Rate = batch per second with a one-second burst, so each ADMIT_STEP allows a full batch; no
    // cap on running, and nobody is abandoned within a run.
    this.policy =
        new RoomPolicy(
            batch,
            Duration.ofSeconds(1),
            Integer.MAX_VALUE,
            session,
            Duration.ofDays(1),
            batch,
            session);
    // Loaded up front, so no measured call falls back to EVAL and compiles its script; on the
    // caller's clock, as the phases run on a MutableClock.
    for (LuaScript script :
        List.of(QueueScripts.ENQUEUE, QueueScripts.JOIN, QueueScripts.ADMIT, QueueScripts.EXPIRE)) {
      Await.result(commands.scriptLoad(script.onCallersClock().source()));
    }
  }

  /**
   * Empties the bucket and stops the clock, so nobody is admitted at once and every enqueue takes
   * the script's "join the line" path. Call on a flushed server before a round.
   */
  void prepare() {
    clock.set(START);
    ended = 0;
    for (QueueId queue : List.of(queue, TICKETS)) {
      Map<String, String> empty = Map.of("tokens", "0", "refill", "" + START.toEpochMilli());
      Await.result(commands.hset(keys.state(queue), empty));
    }
  }

  /** A1 slice: these newcomers join the line by {@code join.lua}, as minted ids do. */
  long join(List<String> visitors) {
    return InFlight.each(visitors, v -> store.join(queue, v, policy).toFuture());
  }

  /**
   * A1 by {@code enqueue.lua}: the same newcomers join a second line by the path for ids that may
   * have been in the queue before (ticket holders).
   */
  long enqueue(List<String> visitors) {
    return InFlight.each(visitors, v -> store.enqueue(TICKETS, v, policy).toFuture());
  }

  /**
   * Before an A2 slice, not measured: the clock a step later, and {@code expire.lua} as the worker
   * runs it before admitting, ending the sessions idle for longer than the session's idle limit
   * (none on {@link #growing}'s queue).
   */
  void step() {
    clock.advance(ADMIT_STEP);
    endSessions();
  }

  /**
   * Ends, not measured, the sessions idle for their idle limit as of now, and the room's users idle
   * as long; see {@link #step}.
   */
  void endSessions() {
    long expired = sessionsEnd ? 1 : 0;
    while (expired > 0) {
      expired = Await.result(store.expire(queue, policy).toFuture()).expired();
      ended += expired;
    }
    if (sessionsEnd) {
      Await.result(rooms.check(queue.room(), policy).toFuture());
    }
  }

  /**
   * The most sessions running before an admission call once they end: those admitted within the
   * session's idle limit, one batch a step ({@link #SESSION}).
   */
  long runningBeforeCall() {
    long steps = (policy.sessionIdleLimit().toMillis() - 1) / ADMIT_STEP.toMillis();
    return steps * policy.admitBatch();
  }

  /** Sessions {@link #endSessions} ended since {@link #prepare}. */
  long ended() {
    return ended;
  }

  /**
   * A2 slice: one admission call, after {@link #step}, which must admit a full batch or the rest.
   */
  long admit() {
    AdmitResult result = Await.result(store.admit(queue, policy).toFuture());
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
    Await.result(store.admit(queue, policy).toFuture());
    return 0;
  }

  /** Whether seen still holds entries for {@link #trim} to remove. */
  boolean seenLeft() {
    return Await.result(commands.zcard(keys.seen(queue))) > 0;
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

  /**
   * Fails unless the line holds {@code waiting} visitors and {@code admitted} were admitted in all:
   * the queue counts that many admissions, and running holds those whose session has not ended, the
   * room's users the same (each visitor is in this one queue only): nobody admitted twice or lost.
   */
  void verify(long waiting, long admitted) {
    Await.expect("queue waiting", waiting, commands.zcard(keys.waiting(queue)));
    Await.expect("queue running", admitted - ended, commands.zcard(keys.running(queue)));
    Await.expect("room users", admitted - ended, commands.zcard(keys.sessions(queue.room())));
    String count = Await.result(commands.hget(keys.state(queue), "admitted"));
    long counted = count == null ? 0 : Long.parseLong(count);
    if (counted != admitted) {
      throw new IllegalStateException(
          "queue: %d admissions counted, expected %d".formatted(counted, admitted));
    }
  }
}
