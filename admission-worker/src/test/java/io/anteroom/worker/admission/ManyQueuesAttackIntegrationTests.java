package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.LuaScript;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.AttackFigures;
import io.anteroom.testing.AttackTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Attack 3 at full size ({@link ManyQueuesIntegrationTests} is its scaled sibling): made-up item
 * ids turn on 1,000 queues of a room with room-wide limits, 5 waiting in each. How long Redis ran
 * each admission call ({@code room_admit.lua}) and each read of the active queues ({@code
 * active_read.lua}, which every gateway's mirror makes 4 times a second), from its slow log set to
 * record every command. One tick at a time, on a clock the test moves.
 */
@AttackTest
class ManyQueuesAttackIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final int QUEUES = 1000;
  static final int EACH = 5;
  static final int READS = 400;

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

  static final AttackFigures FIGURES =
      AttackFigures.of("3-many-queues", "3. 1,000 active queues, room-wide limits");

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();
  final List<QueueId> queues =
      IntStream.range(0, QUEUES).mapToObj(i -> QueueId.of("drop", "item" + i)).toList();
  LinesOnRedis lines;
  RedisCommands<String, String> sync;
  RedisActiveQueues active;
  WorkerFixture worker;
  QueueStore store;

  @BeforeEach
  void start() {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    sync = lines.sync;
    active = lines.active;
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

  /** Microseconds of every call of {@code script} Redis ran, from its slow log. */
  List<Long> durations(LuaScript script) {
    List<Long> micros = new ArrayList<>();
    for (Object entry : sync.slowlogGet(1_000_000)) {
      List<?> fields = (List<?>) entry;
      List<?> command = (List<?>) fields.get(3);
      if (command.size() > 1
          && "EVALSHA".equalsIgnoreCase(command.get(0).toString())
          && script.isSha(command.get(1).toString())) {
        micros.add((Long) fields.get(2));
      }
    }
    return micros;
  }

  static String summary(List<Long> micros) {
    List<Long> sorted = micros.stream().sorted().toList();
    return String.format(
        Locale.ROOT,
        "longest %.2f ms, p99 %.2f ms, median %.2f ms, over %,d calls",
        sorted.get(sorted.size() - 1) / 1000.0,
        sorted.get((int) (sorted.size() * 0.99)) / 1000.0,
        sorted.get(sorted.size() / 2) / 1000.0,
        sorted.size());
  }

  @Test
  void everyAdmissionCallOfAThousandQueuesIsShort() {
    int ticks = 0;
    while (sync.zcard(keys.sessions("drop")) < QUEUES * EACH && ticks < 400) {
      clock.advance(Duration.ofMillis(250));
      worker.loop.runOnce().block();
      ticks++;
    }
    List<Long> calls = durations(QueueScripts.ROOM_ADMIT);
    long longest = calls.stream().mapToLong(Long::longValue).max().orElseThrow();

    assertThat(sync.zcard(keys.sessions("drop")))
        .as("everyone admitted")
        .isEqualTo((long) QUEUES * EACH);
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "room_admit.lua, Redis time of each call (SLOWLOG, slower-than 0) while %,d waiting"
                + " in 1,000 queues were admitted (%d ticks of 250 ms)",
            QUEUES * EACH,
            ticks),
        summary(calls),
        "longest < 2 ms",
        longest < 2_000);
  }

  @Test
  void readingAThousandActiveQueuesIsMeasured() {
    assertThat(active.read().block().queues()).hasSize(QUEUES);
    sync.slowlogReset();

    for (int i = 0; i < READS; i++) {
      active.read().block();
    }

    List<Long> reads = durations(QueueScripts.ACTIVE_READ);
    assertThat(reads).hasSize(READS);
    FIGURES.record(
        "active_read.lua, Redis time of each read of 1,000 active queues (what each gateway's"
            + " ActiveQueueMirror runs 4 times a second)",
        summary(reads));
  }
}
