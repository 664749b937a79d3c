package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.metrics.LineMeters;
import io.micrometer.core.instrument.Gauge;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The worker's gauges and room history against the sets in a real Redis. */
class LineMetricsIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final String ROOM = "drop";

  final QueueKeys keys = new QueueKeys("wr");
  final RoomPolicy paused =
      PolicyParser.apply("test", RoomPolicy.DEFAULTS, Map.of("mode", "paused"));
  RedisConnector connector;
  QueueStore store;
  RedisActiveQueues active;
  WorkerFixture worker;

  @BeforeEach
  void setUp() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 10_000));
    store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
    active = new RedisActiveQueues(connector.commands(), keys);
    connector.commands().flushall();
  }

  @AfterEach
  void tearDown() {
    worker.close();
    connector.close();
  }

  /** Queue {@code item-i} gets {@code i} people in line, i = 1..count; all are turned on. */
  void lineUp(int count) {
    for (int i = 1; i <= count; i++) {
      QueueId queue = QueueId.of(ROOM, "item-" + i);
      for (int v = 0; v < i; v++) {
        store.enqueue(queue, "v" + v, paused).block();
      }
      active.activate(queue, Activation.MANUAL).block();
    }
  }

  /** The {@code queue} tag to value of one gauge of the room. */
  Map<String, Double> series(String name) {
    Map<String, Double> values = new HashMap<>();
    for (Gauge gauge : worker.meters.find(name).tag("room", ROOM).gauges()) {
      values.put(gauge.getId().getTag("queue"), gauge.value());
    }
    return values;
  }

  @Test
  void longestLinesGetTheirOwnSeriesAndTheRestAreSummed() {
    worker = new WorkerFixture(redis.uri(), ROOM, paused, "1h");
    lineUp(30);

    worker.loop.runOnce().block();

    Map<String, Double> waiting = series("anteroom.queue.waiting");
    assertThat(waiting).hasSize(21);
    for (int i = 11; i <= 30; i++) {
      assertThat(waiting).containsEntry("item-" + i, (double) i);
    }
    assertThat(waiting).containsEntry(LineMeters.OTHER, (double) (10 * 11 / 2));
    assertThat(waiting.values().stream().mapToDouble(Double::doubleValue).sum())
        .isEqualTo((double) zcardOfAllWaiting(30));
    assertThat(series("anteroom.queue.running"))
        .hasSize(21)
        .allSatisfy((q, v) -> assertThat(v).isZero());
    assertThat(series("anteroom.queue.admit.rate.configured")).containsEntry("item-30", 0.0);
  }

  @Test
  void queuesTurnedOffLoseTheirSeriesAndTheOtherSeriesStays() {
    worker = new WorkerFixture(redis.uri(), ROOM, paused, "1h");
    assertThat(series("anteroom.queue.waiting")).containsOnlyKeys(LineMeters.OTHER);
    lineUp(3);
    worker.loop.runOnce().block();
    assertThat(series("anteroom.queue.waiting"))
        .containsOnlyKeys("item-1", "item-2", "item-3", LineMeters.OTHER);

    active.deactivate(QueueId.of(ROOM, "item-1"), Activation.MANUAL).block();
    active.deactivate(QueueId.of(ROOM, "item-3"), Activation.MANUAL).block();
    worker.loop.runOnce().block();

    assertThat(series("anteroom.queue.waiting"))
        .containsOnly(Map.entry("item-2", 2.0), Map.entry(LineMeters.OTHER, 0.0));
  }

  @Test
  void countersOfEveryConfiguredRoomExistBeforeAnythingHappens() {
    worker = new WorkerFixture(redis.uri(), ROOM, paused, "1h");

    for (String name :
        List.of(
            "anteroom.worker.admitted",
            "anteroom.worker.abandoned",
            "anteroom.worker.expired",
            "anteroom.worker.cleared",
            "anteroom.worker.errors",
            "anteroom.worker.deactivated")) {
      assertThat(worker.meters.find(name).tag("room", ROOM).counter()).as(name).isNotNull();
    }
  }

  @Test
  void eachTickSamplesTheRoomIntoItsHistory() {
    worker = new WorkerFixture(redis.uri(), ROOM, paused, "1h");
    lineUp(4);

    worker.loop.runOnce().block();

    List<HistorySample> history =
        new RedisRoomHistory(connector.commands(), keys, Clock.systemUTC()).recent(ROOM).block();
    assertThat(history).hasSize(1);
    assertThat(history.get(0).waiting()).isEqualTo(1 + 2 + 3 + 4);
    assertThat(history.get(0).running()).isZero();
  }

  @Test
  void measuredRateFollowsTheAdmissionsInRedis() {
    RoomPolicy admitting =
        PolicyParser.apply(
            "test", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "40", "admit-burst", "100ms"));
    MutableClock clock = MutableClock.startingAt2026();
    worker = new WorkerFixture(redis.uri(), ROOM, admitting, "100ms", clock);
    QueueStore line = new RedisQueueStore(connector.commands(), keys, clock);
    QueueId queue = QueueId.of(ROOM, "hot");
    for (int v = 0; v < 1000; v++) {
      line.enqueue(queue, "v" + v, paused).block();
    }
    active.activate(queue, Activation.MANUAL).block();

    // Four seconds of ticks, 100 ms apart on the worker's clock.
    tick(clock, 40, Duration.ofMillis(100));

    double measured = series("anteroom.queue.admit.rate.measured").get("hot");
    assertThat(measured).isCloseTo(40.0, within(10.0));
    assertThat(series("anteroom.queue.admit.rate.configured")).containsEntry("hot", 40.0);
    assertThat(series("anteroom.queue.running").get("hot"))
        .isEqualTo((double) line.counts(queue).block().running());
  }

  @Test
  void measuredRateWhenTheLineStopsMovingThenIsTheRateMeasuredInRedisWhileItMoved() {
    MutableClock clock = MutableClock.startingAt2026();
    worker = new WorkerFixture(redis.uri(), ROOM, RoomPolicy.DEFAULTS, "250ms", clock);
    QueueStore line = new RedisQueueStore(connector.commands(), keys, clock);
    QueueId queue = QueueId.of(ROOM, "steady");
    for (int v = 0; v < 300; v++) {
      line.enqueue(queue, "v" + v, paused).block();
    }
    active.activate(queue, Activation.MANUAL).block();
    tick(clock, 40, Duration.ofMillis(250));
    new RedisSettingsStore(connector.commands(), keys)
        .put(ROOM, null, Map.of("mode", "paused"))
        .block();
    tick(clock, 20, Duration.ofMillis(250));

    double inRedis = line.status(queue, "v299").block().measuredRate();
    assertThat(inRedis).as("10 per second while the line moved").isCloseTo(10.0, within(1.0));
    assertThat(series("anteroom.queue.admit.rate.measured").get("steady")).isEqualTo(inRedis);
  }

  /** Runs {@code ticks} ticks of the worker, {@code apart} apart on {@code clock}. */
  void tick(MutableClock clock, int ticks, Duration apart) {
    for (int i = 0; i < ticks; i++) {
      clock.advance(apart);
      worker.loop.runOnce().block();
    }
  }

  long zcardOfAllWaiting(int count) {
    long total = 0;
    for (int i = 1; i <= count; i++) {
      total += store.counts(QueueId.of(ROOM, "item-" + i)).block().waiting();
    }
    return total;
  }
}
