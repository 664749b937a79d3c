package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.shadow.RedisShadowLines;
import io.anteroom.queue.shadow.ShadowLines;
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
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * Attack 4 at full size (the scaled ones: {@code RoomUsersIntegrationTests}' shadow register,
 * {@code RedisShadowLinesIntegrationTests}' full virtual line): a room in shadow mode, its item's
 * queue on, takes anonymous arrivals, 100 a second for 90 minutes of a clock the test moves. Each
 * second's newcomers do what the gateway does for them: each joins the virtual line under an id
 * minted for the join ({@code ShadowJoins}), and all are registered as running with their passes
 * ({@code PassRegistrar}'s flush); the worker ticks once a test second. The room's own bucket
 * ({@code new-users-per-minute}) must not be touched, and Redis's memory must level off.
 */
@AttackTest
class ShadowHourAttackIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  /** 90 minutes: the hour, then long enough past finished-retention (1 h) to level off. */
  static final int SECONDS = 5400;

  static final int PER_SECOND = 100;

  /** Shadow mode, 600 new users a minute room-wide, the queue 10 a second, sessions of 10 min. */
  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "mode", "shadow",
              "new-users-per-minute", "600",
              "total-active-users", "1000000",
              "max-active", "1000000",
              "admit-per-second", "10",
              "session-duration", "10m"));

  static final AttackFigures FIGURES = AttackFigures.of("4-shadow-hour", "4. A shadow hour");

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId drop = QueueId.of("drop", "sneaker");
  final MutableClock clock = MutableClock.startingAt2026();
  LinesOnRedis onRedis;
  RedisCommands<String, String> sync;
  ShadowLines lines;
  QueueStore store;
  WorkerFixture worker;

  @BeforeEach
  void start() {
    onRedis = new LinesOnRedis(redis.uri(), keys, clock);
    sync = onRedis.sync;
    store = onRedis.store;
    lines = new RedisShadowLines(onRedis.connector.commands(), keys, clock);
    onRedis.on(List.of(drop));
    worker = onRedis.worker("drop", POLICY, "1s");
  }

  @AfterEach
  void tearDown() {
    onRedis.close();
  }

  long usedMemory() {
    return sync.info("memory")
        .lines()
        .filter(l -> l.startsWith("used_memory:"))
        .map(l -> Long.parseLong(l.substring("used_memory:".length()).trim()))
        .findFirst()
        .orElseThrow();
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1024.0 / 1024.0);
  }

  @Test
  void anHourOfAnonymousArrivalsLeavesTheRoomsBucketAloneAndMemoryLevel() {
    long atStart = usedMemory();
    List<Long> perMinute = new ArrayList<>();
    long joined = 0;
    for (int second = 1; second <= SECONDS; second++) {
      clock.advance(Duration.ofSeconds(1));
      List<String> newcomers = new ArrayList<>();
      for (int i = 0; i < PER_SECOND; i++) {
        newcomers.add(UUID.randomUUID().toString());
      }
      joined +=
          Flux.fromIterable(newcomers)
              .flatMap(v -> lines.join(drop, UUID.randomUUID().toString(), POLICY), 256)
              .filter(Boolean::booleanValue)
              .count()
              .block();
      store.register(drop, newcomers, POLICY).block();
      worker.loop.runOnce().block();
      if (second % 60 == 0) {
        perMinute.add(usedMemory());
      }
    }
    long peak = perMinute.stream().mapToLong(Long::longValue).max().orElseThrow();
    long end = perMinute.get(perMinute.size() - 1);
    long atHour = perMinute.get(59);
    long atLevel = perMinute.get(74);
    long lastPeak = perMinute.subList(75, 90).stream().mapToLong(Long::longValue).max().orElse(0);
    String tokens = sync.hget(keys.budget("drop"), "tokens");
    boolean full = tokens == null || Double.parseDouble(tokens) >= 10;
    long running = sync.zcard(keys.running(drop));
    long sessions = sync.zcard(keys.sessions("drop"));
    long finished = sync.zcard(keys.finished(drop));
    long virtual = sync.zcard(keys.shadow().waiting(drop));
    long virtualRunning = sync.zcard(keys.shadow().running(drop));

    assertThat(running).as("real sessions, ended by expiry").isLessThan(SECONDS * PER_SECOND);
    // The bound is read apart from each join, so the joins in flight at once (a second's 100
    // here) may pass it.
    assertThat(virtual).isLessThanOrEqualTo(ShadowLines.MAX_WAITING + PER_SECOND);
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "%,d anonymous arrivals over %,d s of test clock (100/s) in shadow mode: the room's"
                + " new-users-per-minute bucket (600/min, burst 1 s: 10 tokens) afterwards",
            SECONDS * PER_SECOND,
            SECONDS),
        tokens == null ? "never written (no token taken)" : tokens + " tokens",
        "full: no token taken, no debt",
        full);
    FIGURES.record(
        "Redis used_memory sampled every minute: at the start, at 60 min, at 75 min (sessions'"
            + " 11 min + finished-retention 1 h), peak, the peak of minutes 76-90, at the end",
        String.join(
            " / ", mib(atStart), mib(atHour), mib(atLevel), mib(peak), mib(lastPeak), mib(end)),
        "level once retention is full: the peak of minutes 76-90 ≤ 1.05 × the 75th minute's",
        lastPeak <= atLevel * 1.05);
    FIGURES.record(
        "what holds the memory at the end: real running sessions (each arrival enters; ended after"
            + " 10 min idle, so at most 100/s × 11 min), the room's sessions, the finished visitors"
            + " kept (finished-retention 1 h), the virtual line (capped at 20,000 plus the joins in"
            + " flight, beyond counted only), the virtual line's admitted",
        String.format(
            Locale.ROOT,
            "%,d / %,d / %,d / %,d / %,d; %,d of %,d joins kept in the virtual line",
            running,
            sessions,
            finished,
            virtual,
            virtualRunning,
            joined,
            SECONDS * PER_SECOND));
  }
}
