package io.anteroom.bench;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same items' load, joins and admissions, in the two key layouts a Redis Cluster can hold them
 * in: one room with room-wide limits, all of its items under the hash tag {@code {room}} and
 * admitted together by {@code room_admit.lua}; and one room per item, as the items of a room were
 * spread before room-wide limits ({@code {room:item}}), each admitted alone by {@code admit.lua}.
 */
final class ClusterLayouts {

  static final String ROOM = "shop";

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final MutableClock clock = new MutableClock(START);
  private final RedisQueueStore queues;
  private final RedisRoomStore rooms;
  private final int items;
  private final int batch;

  ClusterLayouts(RedisClusterAsyncCommands<String, String> commands, int items, int batch) {
    this.commands = commands;
    this.queues = new RedisQueueStore(commands, keys, clock);
    this.rooms = new RedisRoomStore(commands, keys, clock);
    this.items = items;
    this.batch = batch;
  }

  /** The queues of the one room: {@code shop:1} … {@code shop:N}. */
  List<QueueId> oneRoom() {
    List<QueueId> queues = new ArrayList<>();
    for (int i = 1; i <= items; i++) {
      queues.add(QueueId.of(ROOM, Integer.toString(i)));
    }
    return queues;
  }

  /** The same items as rooms of their own: {@code shop-1:1} … {@code shop-N:N}. */
  List<QueueId> roomPerItem() {
    List<QueueId> queues = new ArrayList<>();
    for (int i = 1; i <= items; i++) {
      queues.add(QueueId.of(ROOM + "-" + i, Integer.toString(i)));
    }
    return queues;
  }

  /**
   * The one room: {@code visitors} join its items in turn, then room admission calls, one a second,
   * let them all in, one batch a call shared over the items (the room's rate is one batch a second,
   * its cap on total active users above everyone).
   */
  void runOneRoom(List<String> visitors) {
    RoomPolicy room =
        PolicyParser.apply(
            "bench",
            policy(),
            Map.of(
                "new-users-per-minute", Integer.toString(batch * 60),
                "total-active-users", Integer.toString(2 * visitors.size() + batch)));
    Map<QueueId, RoomPolicy> all = new LinkedHashMap<>();
    oneRoom().forEach(q -> all.put(q, room));
    join(oneRoom(), visitors, room);
    long admitted = 0;
    while (admitted < visitors.size()) {
      clock.advance(Duration.ofSeconds(1));
      RoomAdmitResult result = Await.result(rooms.admit(ROOM, room, all).toFuture());
      if (result.admitted() == 0) {
        throw new IllegalStateException("a room admission call admitted nobody: " + result);
      }
      admitted += result.admitted();
    }
    verify(oneRoom(), visitors.size());
  }

  /**
   * One room per item: {@code visitors} join the items in turn, then each second one admission call
   * per item with people waiting, each admitting up to a batch.
   */
  void runRoomPerItem(List<String> visitors) {
    RoomPolicy policy = policy();
    join(roomPerItem(), visitors, policy);
    long admitted = 0;
    while (admitted < visitors.size()) {
      clock.advance(Duration.ofSeconds(1));
      for (QueueId queue : roomPerItem()) {
        AdmitResult result = Await.result(queues.admit(queue, policy).toFuture());
        admitted += result.admitted();
      }
    }
    verify(roomPerItem(), visitors.size());
  }

  /**
   * Each queue a batch a second, no cap; sessions and places outlast the run, so nobody is
   * abandoned and no session ends.
   */
  private RoomPolicy policy() {
    return new RoomPolicy(
        batch,
        Duration.ofSeconds(1),
        Integer.MAX_VALUE,
        Duration.ofDays(1),
        Duration.ofHours(1),
        batch,
        Duration.ofHours(1));
  }

  /**
   * Turns the queues on (a state hash without a time to live; an empty bucket, so everyone waits)
   * and lets {@code visitors} join them in turn by {@code join.lua}, pipelined.
   */
  private void join(List<QueueId> order, List<String> visitors, RoomPolicy policy) {
    clock.set(START);
    Map<String, String> empty = Map.of("tokens", "0", "refill", "" + START.toEpochMilli());
    for (QueueId queue : order) {
      Await.result(commands.hset(keys.state(queue), empty));
    }
    int[] next = {0};
    InFlight.each(
        visitors, v -> queues.join(order.get(next[0]++ % order.size()), v, policy).toFuture());
  }

  /** Fails unless nobody waits and exactly {@code admitted} visitors run: none twice, none lost. */
  private void verify(List<QueueId> order, long admitted) {
    long waiting = 0;
    long running = 0;
    for (QueueId queue : order) {
      waiting += Await.result(commands.zcard(keys.waiting(queue)));
      running += Await.result(commands.zcard(keys.running(queue)));
    }
    if (waiting != 0 || running != admitted) {
      throw new IllegalStateException(
          "expected 0 waiting and %d running, found %d and %d"
              .formatted(admitted, waiting, running));
    }
  }

  /** The key whose slot holds queue {@code queue}'s line. */
  String slotKey(QueueId queue) {
    return keys.waiting(queue);
  }
}
