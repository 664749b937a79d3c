package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A line that does not move, its queue's cap or its room full: those in it who stopped polling are
 * finished at the worker's tick wherever they stand, not only once they reach the head, so the
 * counts, places and estimates of those still there stay honest, and a place is kept no longer than
 * abandon-after. One tick at a time, on a clock the test moves.
 */
class StuckLinesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId hot = QueueId.of("drop", "sneaker");
  final MutableClock clock = MutableClock.startingAt2026();
  LinesOnRedis lines;
  RedisConnector connector;
  RedisCommands<String, String> sync;
  WorkerFixture worker;
  QueueStore store;

  void start(RoomPolicy policy) {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    connector = lines.connector;
    sync = lines.sync;
    store = lines.store;
    worker = lines.worker("drop", policy, "250ms");
    worker.loop.runOnce().block();
  }

  @AfterEach
  void tearDown() {
    lines.close();
  }

  static RoomPolicy policy(String... values) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    map.put("abandon-after", "30s");
    for (int i = 0; i < values.length; i += 2) {
      map.put(values[i], values[i + 1]);
    }
    return PolicyParser.apply("test", RoomPolicy.DEFAULTS, map);
  }

  /** a and b wait; a polls 20 s later, b never; the worker ticks every second for 40 s. */
  void aPollsAndBLeaves(RoomPolicy policy) {
    store.enqueue(hot, "a", policy).block();
    store.enqueue(hot, "b", policy).block();
    lines.on(List.of(hot));
    ticksFor(Duration.ofSeconds(20));
    store.status(hot, "a").block();
    ticksFor(Duration.ofSeconds(20));
  }

  /**
   * The worker's ticks over {@code time}, one a second: a worker that read Redis no more than a
   * second ago sees no outage, so it gives no visitor extra time for one.
   */
  void ticksFor(Duration time) {
    for (long s = 0; s < time.toSeconds(); s++) {
      clock.advance(Duration.ofSeconds(1));
      worker.loop.runOnce().block();
    }
  }

  @Test
  void aLineItsQueuesCapHoldsStillLosesThoseWhoStoppedPolling() {
    RoomPolicy capOfOne = policy("max-active", "1");
    start(capOfOne);
    assertThat(store.enqueue(hot, "r", capOfOne).block().admitted()).isTrue();

    aPollsAndBLeaves(capOfOne);

    assertThat(sync.zrange(keys.waiting(hot), 0, -1)).containsExactly("a");
    assertThat(sync.zscore(keys.finished(hot), "b")).isNotNull();
    assertThat(store.counts(hot).block().running()).as("r still runs").isOne();
  }

  @Test
  void aLineItsFullRoomHoldsStillLosesThoseWhoStoppedPolling() {
    RoomPolicy roomOfOne = policy("total-active-users", "1", "max-active", "1");
    start(roomOfOne);
    RedisRoomStore rooms = new RedisRoomStore(connector.commands(), keys, clock);
    QueueId quiet = QueueId.of("drop", "socks");
    assertThat(rooms.enter(quiet, "r", roomOfOne, roomOfOne).block()).isTrue();

    aPollsAndBLeaves(roomOfOne);

    assertThat(sync.zrange(keys.waiting(hot), 0, -1)).containsExactly("a");
    assertThat(sync.zscore(keys.finished(hot), "b")).isNotNull();
    assertThat(sync.zcard(keys.sessions("drop"))).as("r alone inside").isOne();
  }
}
