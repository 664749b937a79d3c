package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * Those who left the line (one-shot arrivals that never poll: bots, clients without cookies, closed
 * tabs) do not slow the admission of those still in it: a worker's tick keeps calling while a call
 * did a whole batch of work, admitting or finishing, so the line moves at its configured rate
 * whatever share of it has left, each call still short. One tick at a time, on a clock the test
 * moves; 500 a second, bursts of 500, batches of 100, abandon-after 2 minutes.
 */
class GoneVisitorsIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "admit-per-second", "500",
              "admit-burst", "1s",
              "admit-batch", "100",
              "abandon-after", "120s"));

  /** The same while they join, paused so that nobody is let in at once. */
  static final RoomPolicy JOINING = PolicyParser.apply("test", POLICY, Map.of("mode", "paused"));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId drop = QueueId.of("drop", "sneaker");
  final MutableClock clock = MutableClock.startingAt2026();
  LinesOnRedis lines;
  RedisConnector connector;
  WorkerFixture worker;
  QueueStore store;

  @BeforeEach
  void start() {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    connector = lines.connector;
    store = lines.store;
    lines.on(List.of(drop));
    worker = lines.worker("drop", POLICY, "250ms");
  }

  @AfterEach
  void tearDown() {
    lines.close();
  }

  void join(List<String> visitors) {
    Flux.fromIterable(visitors).flatMap(v -> store.join(drop, v, JOINING), 256).blockLast();
  }

  void poll(List<String> visitors) {
    Flux.fromIterable(visitors).flatMap(v -> store.status(drop, v, POLICY), 256).blockLast();
  }

  /** Admitted by the worker's ticks over {@code ticks} quarters of a second. */
  long admittedOver(int ticks) {
    long before = admittedSoFar();
    for (int i = 0; i < ticks; i++) {
      clock.advance(Duration.ofMillis(250));
      worker.loop.runOnce().block();
    }
    return admittedSoFar() - before;
  }

  long admittedSoFar() {
    return store.counts(drop).block().admitted();
  }

  /** Those admitted who are not among {@code polling}: none may be. */
  List<String> admittedWhoLeft(List<String> polling) {
    return connector
        .commands()
        .zrange(keys.running(drop), 0, -1)
        .toCompletableFuture()
        .join()
        .stream()
        .filter(v -> !polling.contains(v))
        .toList();
  }

  static List<String> named(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
  }

  @Test
  void oneTickAdmitsThoseStillPollingBehindTwoThousandWhoLeft() {
    join(named("gone-", 0, 2000));
    clock.advance(Duration.ofSeconds(1));
    List<String> polling = named("here-", 0, 100);
    join(polling);
    clock.advance(Duration.ofSeconds(149));
    poll(polling);

    assertThat(admittedOver(1)).isEqualTo(100);
    assertThat(store.counts(drop).block().waiting()).isZero();
    assertThat(admittedWhoLeft(polling)).isEmpty();
  }

  @Test
  void inARoomWithRoomWideLimitsOneTickAlsoAdmitsThoseBehindTwoThousandWhoLeft() {
    RoomPolicy limited = PolicyParser.apply("test", POLICY, Map.of("total-active-users", "100000"));
    worker = lines.worker("drop", limited, "250ms");
    join(named("gone-", 0, 2000));
    clock.advance(Duration.ofSeconds(1));
    List<String> polling = named("here-", 0, 100);
    join(polling);
    clock.advance(Duration.ofSeconds(149));
    poll(polling);

    assertThat(admittedOver(1)).isEqualTo(100);
    assertThat(admittedWhoLeft(polling)).isEmpty();
  }

  @Test
  void whenNineInTenLeftTheLineStillMovesAtItsRate() {
    List<String> polling = new java.util.ArrayList<>();
    for (int i = 1; i <= 5000; i++) {
      String visitor = (i % 10 == 0 ? "here-" : "gone-") + i;
      join(List.of(visitor));
      if (i % 10 == 0) {
        polling.add(visitor);
      }
      clock.advance(Duration.ofMillis(1));
    }
    clock.advance(Duration.ofSeconds(145));
    poll(polling);

    // The bucket holds a burst of 500 when the ticks begin: enough for all of them at once.
    assertThat(admittedOver(4)).as("of 500 polling, at 500 a second").isEqualTo(500);
    assertThat(admittedWhoLeft(polling)).isEmpty();
  }

  @Test
  void whenNineInTenNeverComeBackTheOthersTakeTheAdmissionsOnceTheFirstMinuteHasPassed() {
    RoomPolicy flooded =
        PolicyParser.apply(
            "test",
            RoomPolicy.DEFAULTS,
            Map.of(
                "admit-per-second", "10",
                "admit-burst", "1s",
                "admit-batch", "50",
                "max-active", "100000",
                "abandon-after", "120s"));
    worker = lines.worker("drop", flooded, "250ms");
    List<String> polling = new java.util.ArrayList<>();
    long windowStart = clock.millis() + 70_000;
    // 100 s: each quarter second 45 one-shot arrivals that never come back (180 a second) and 5
    // who poll every 5 s until admitted (20 a second, twice the rate); the worker ticks throughout.
    for (int tick = 1; tick <= 400; tick++) {
      join(named("gone-" + tick + "-", 0, 45));
      List<String> arrived = named("here-" + tick + "-", 0, 5);
      join(arrived);
      polling.addAll(arrived);
      if (tick % 20 == 0) {
        poll(polling);
      }
      clock.advance(Duration.ofMillis(250));
      worker.loop.runOnce().block();
    }

    Map<Boolean, Long> admittedInWindow =
        connector
            .commands()
            .zrangebyscoreWithScores(
                keys.running(drop),
                io.lettuce.core.Range.create((double) windowStart, (double) clock.millis()))
            .toCompletableFuture()
            .join()
            .stream()
            .collect(
                java.util.stream.Collectors.partitioningBy(
                    v -> v.getValue().startsWith("here-"), java.util.stream.Collectors.counting()));
    // The last 30 s: 300 admissions at 10 a second.
    assertThat(admittedInWindow.get(true)).as("of those polling").isGreaterThanOrEqualTo(270);
    assertThat(admittedInWindow.get(false)).as("of those who never came back").isLessThan(30);
  }
}
