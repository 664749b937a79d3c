package io.anteroom.bench;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Side A, the room: a room with room-wide limits and {@link #ITEMS} active item queues, each with a
 * long line, admitted across them by {@code room_admit.lua} through {@link RedisRoomStore}, as the
 * worker calls it for a room with limits. The same visitors as {@link QueuePhases}' one queue,
 * dealt over the items in turn. Sessions end as there: before each call, not measured, {@code
 * expire.lua} on each queue and the room's check, so the room's users hover at the one queue's
 * running size and the measured call finds none to drop.
 */
final class RoomPhases {

  static final String ROOM = "room";

  /** Active item queues of the room, each with people waiting. */
  static final int ITEMS = 3;

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /** One call a second: the room's bucket refills exactly one batch. */
  private static final Duration ADMIT_STEP = Duration.ofSeconds(1);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final MutableClock clock = new MutableClock(START);
  private final RedisQueueStore queues;
  private final RedisRoomStore rooms;
  private final RoomPolicy room;
  private final Map<QueueId, RoomPolicy> items = new LinkedHashMap<>();
  private long ended;

  /**
   * The room admits {@code batch} new users a second (a bucket of one batch) with a cap on total
   * active users above everyone of the run ({@code visitors}), so the rate binds and the cap is
   * checked without binding; each queue alone could take a whole batch a call and has no cap, so
   * the room's batch is shared among the queues by their (equal) weights. Sessions last {@link
   * QueuePhases#SESSION}, as the one queue's; places longer than a run.
   */
  RoomPhases(RedisClusterAsyncCommands<String, String> commands, int batch, int visitors) {
    this.commands = commands;
    this.queues = new RedisQueueStore(commands, keys, clock);
    this.rooms = new RedisRoomStore(commands, keys, clock);
    RoomPolicy base =
        new RoomPolicy(
            batch,
            Duration.ofSeconds(1),
            Integer.MAX_VALUE,
            QueuePhases.SESSION,
            Duration.ofHours(1),
            batch,
            QueuePhases.SESSION);
    this.room =
        PolicyParser.apply(
            "bench",
            base,
            Map.of(
                "new-users-per-minute", Integer.toString(batch * 60),
                "total-active-users", Integer.toString(2 * visitors + batch)));
    for (int i = 1; i <= ITEMS; i++) {
      items.put(QueueId.of(ROOM, "item" + i), room);
    }
    Await.result(commands.scriptLoad(QueueScripts.ROOM_ADMIT.onCallersClock().source()));
  }

  /** Stops the clock; call on a flushed server before a round. */
  void prepare() {
    clock.set(START);
    ended = 0;
  }

  /**
   * Fills the room's lines with {@code visitors}, dealt over the items in turn, by {@code join.lua}
   * while the room's bucket is empty, so everyone waits. Not measured.
   */
  void fill(List<String> visitors) {
    Map<String, String> empty = Map.of("tokens", "0", "refill", "" + START.toEpochMilli());
    for (QueueId queue : items.keySet()) {
      Await.result(commands.hset(keys.state(queue), empty));
    }
    Await.result(commands.hset(keys.budget(ROOM), empty));
    List<QueueId> order = new ArrayList<>(items.keySet());
    int[] next = {0};
    InFlight.each(visitors, v -> queues.join(order.get(next[0]++ % ITEMS), v, room).toFuture());
  }

  /**
   * Before an A2 slice, not measured: the clock a step later, and {@code expire.lua} on each of the
   * room's queues, as the worker runs it before admitting.
   */
  void step() {
    clock.advance(ADMIT_STEP);
    endSessions();
  }

  /**
   * Ends, not measured, the sessions idle for their idle limit as of now, in the queues' running
   * sets, and drops the room's users idle as long (the room's check, as the worker's tick does).
   */
  void endSessions() {
    for (QueueId queue : items.keySet()) {
      long expired;
      do {
        expired = Await.result(queues.expire(queue, room).toFuture()).expired();
        ended += expired;
      } while (expired > 0);
    }
    Await.result(rooms.check(ROOM, room).toFuture());
  }

  /**
   * A2 slice: one room admission call, after {@link #step}, which must admit a full batch or the
   * rest.
   */
  long admit() {
    RoomAdmitResult result = Await.result(rooms.admit(ROOM, room, items).toFuture());
    long abandoned = result.queues().values().stream().mapToLong(r -> r.abandoned()).sum();
    if (result.admitted() == 0 || abandoned > 0) {
      throw new IllegalStateException("a room admission call did not admit a batch: " + result);
    }
    return result.admitted();
  }

  /** A2 clean-up, as {@link QueuePhases#trim}: one call that trims stale seen entries. */
  long trim() {
    Await.result(rooms.admit(ROOM, room, items).toFuture());
    return 0;
  }

  /** Whether any of the room's queues still holds seen entries for {@link #trim} to remove. */
  boolean seenLeft() {
    for (QueueId queue : items.keySet()) {
      if (Await.result(commands.zcard(keys.seen(queue))) > 0) {
        return true;
      }
    }
    return false;
  }

  /** Moves the clock past abandon-after, so every seen entry is stale (no session idles out). */
  void ageSeen() {
    clock.advance(room.abandonAfter().plusSeconds(1));
  }

  /**
   * Fails unless the room's lines hold {@code waiting} visitors and {@code admitted} were admitted
   * in all: the queues count that many admissions, and their running sets and the room's sessions
   * hold those whose session has not ended: nobody admitted twice or lost.
   */
  void verify(long waiting, long admitted) {
    long inLine = 0;
    long running = 0;
    long counted = 0;
    for (QueueId queue : items.keySet()) {
      inLine += Await.result(commands.zcard(keys.waiting(queue)));
      running += Await.result(commands.zcard(keys.running(queue)));
      String count = Await.result(commands.hget(keys.state(queue), "admitted"));
      counted += count == null ? 0 : Long.parseLong(count);
    }
    if (inLine != waiting || running != admitted - ended || counted != admitted) {
      throw new IllegalStateException(
          "room: expected %d waiting, %d running and %d admitted, found %d, %d and %d"
              .formatted(waiting, admitted - ended, admitted, inLine, running, counted));
    }
    Await.expect("room sessions", admitted - ended, commands.zcard(keys.sessions(ROOM)));
  }
}
