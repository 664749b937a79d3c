package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A room with room-wide limits and many queues on, as made-up item ids can turn on: each admission
 * call looks at a window of at most {@link RoomWindows#SIZE} queues, so one call's work is bounded
 * whatever the number of queues, and yet every line is reached and the room's limits hold. What
 * Redis ran is read back from its slow log, set to record every command. One tick at a time, on a
 * clock the test moves.
 */
class ManyQueuesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final int QUEUES = 300;
  static final int EACH = 3;

  /** 1,000 new users a second in bursts of one second, each queue 10 a second. */
  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "new-users-per-minute", "60000",
              "total-active-users", "100000",
              "admit-per-second", "10",
              "admit-batch", "100",
              "abandon-after", "10m"));

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();
  final List<QueueId> queues =
      IntStream.range(0, QUEUES).mapToObj(i -> QueueId.of("drop", "item" + i)).toList();
  LinesOnRedis lines;
  RedisCommands<String, String> sync;
  WorkerFixture worker;
  QueueStore store;

  @BeforeEach
  void start() {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    sync = lines.sync;
    store = lines.store;
    lines.on(queues);
    lines.joinEach(queues, EACH, POLICY);
    worker = lines.worker("drop", POLICY, "250ms");
    lines.recordEveryCommand();
  }

  @AfterEach
  void tearDown() {
    lines.close();
  }

  void ticks(int count) {
    for (int i = 0; i < count; i++) {
      clock.advance(Duration.ofMillis(250));
      worker.loop.runOnce().block();
    }
  }

  /** The number of keys of every room_admit.lua call Redis ran, from its slow log. */
  List<Long> roomAdmitKeys() {
    List<Long> counts = new ArrayList<>();
    for (Object entry : sync.slowlogGet(1_000_000)) {
      List<?> fields = (List<?>) entry;
      List<?> command = (List<?>) fields.get(3);
      if (command.size() > 2
          && "EVALSHA".equalsIgnoreCase(command.get(0).toString())
          && QueueScripts.ROOM_ADMIT.isSha(command.get(1).toString())) {
        counts.add(Long.parseLong(command.get(2).toString()));
      }
    }
    return counts;
  }

  @Test
  void everyCallLooksAtAFewQueuesAndEveryLineIsReached() {
    ticks(8);

    List<Long> keysPerCall = roomAdmitKeys();
    assertThat(keysPerCall).isNotEmpty();
    assertThat(keysPerCall)
        .as("the room's two keys and six per queue, at most a window of queues")
        .allMatch(keys -> keys <= 2 + 6L * RoomWindows.SIZE);
    for (QueueId queue : queues) {
      assertThat(store.counts(queue).block().waiting()).as(queue.toString()).isZero();
    }
    assertThat(sync.zcard(keys.sessions("drop"))).isEqualTo((long) QUEUES * EACH);
  }

  @Test
  void theRoomsRateHoldsAcrossWindows() {
    RoomPolicy slow = PolicyParser.apply("test", POLICY, Map.of("new-users-per-minute", "6000"));
    worker = lines.worker("drop", slow, "250ms");

    ticks(4);

    // 100 a second, a burst of one second's worth: at most 200 in the first second.
    long admitted = sync.zcard(keys.sessions("drop"));
    assertThat(admitted).isGreaterThan(0).isLessThanOrEqualTo(200);
  }
}
