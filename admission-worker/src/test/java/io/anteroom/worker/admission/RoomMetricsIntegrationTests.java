package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The worker's gauges of a room as a whole (active users, measured new users per minute, waiting
 * across its queues) against a real Redis, with the worker's ticks driven on a clock moved by hand.
 */
class RoomMetricsIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final String ROOM = "shop";

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId first = QueueId.of(ROOM, "1");
  final QueueId second = QueueId.of(ROOM, "2");
  MutableClock clock;
  RedisConnector connector;
  QueueStore store;
  RedisActiveQueues active;
  WorkerFixture worker;

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 10_000));
    store = new RedisQueueStore(connector.commands(), keys, clock);
    active = new RedisActiveQueues(connector.commands(), keys);
    connector.commands().flushall();
  }

  @AfterEach
  void tearDown() {
    worker.close();
    connector.close();
  }

  /** Puts {@code count} people in the queue's line and turns it on. */
  void line(QueueId queue, int count, RoomPolicy policy) {
    for (int v = 0; v < count; v++) {
      store.enqueue(queue, queue.item() + "-" + v, policy).block();
    }
    active.activate(queue, Activation.MANUAL).block();
  }

  double gauge(String name) {
    Gauge gauge = worker.meters.find(name).tag("room", ROOM).gauge();
    assertThat(gauge).as(name).isNotNull();
    return gauge.value();
  }

  /** Runs {@code ticks} ticks of the worker, 250 ms apart. */
  void tick(int ticks) {
    for (int i = 0; i < ticks; i++) {
      clock.advance(Duration.ofMillis(250));
      worker.loop.runOnce().block();
    }
  }

  @Test
  void aRoomWithLimitsShowsItsActiveUsersNewUsersAndWaitingAcrossItsQueues() {
    // 600 a minute: 10 a second, 2 or 3 a tick after a first burst of 10. With a time constant of
    // a minute each count of n moves the figure by about n, and two minutes on the burst still
    // weighs 10 / e^2: within 4 of 600.
    RoomPolicy policy = RoomLimitsIntegrationTests.room("new-users-per-minute", "600");
    worker = new WorkerFixture(redis.uri(), ROOM, policy, "250ms", clock);
    line(first, 1000, policy);
    line(second, 1000, policy);

    tick(2 * 60 * 4);

    assertThat(gauge("anteroom.room.new.users.per.minute")).isCloseTo(600, within(4.0));
    long waiting = store.counts(first).block().waiting() + store.counts(second).block().waiting();
    assertThat(waiting).as("two minutes at 600 a minute, and the burst").isCloseTo(790, within(5L));
    assertThat(gauge("anteroom.room.waiting")).isEqualTo((double) waiting);
    assertThat(gauge("anteroom.room.active.users"))
        .isEqualTo(
            (double) connector.commands().zcard(keys.sessions(ROOM)).toCompletableFuture().join());
    assertThat(worker.errors()).isZero();
  }

  @Test
  void aRoomWithoutLimitsShowsPassesGivenWhileOffAndTheLinesOfQueuesThatAdmitNobody() {
    RoomPolicy paused = RoomLimitsIntegrationTests.room("mode", "paused");
    worker = new WorkerFixture(redis.uri(), ROOM, paused, "250ms", clock);
    line(first, 3, paused);
    line(second, 4, paused);
    QueueId quiet = QueueId.of(ROOM, "3");

    // Two passes a second for a minute on an item whose queue is off.
    for (int second = 0; second < 60; second++) {
      List<String> passes = new ArrayList<>(List.of("p" + second + "a", "p" + second + "b"));
      store.register(quiet, passes, paused).block();
      tick(4);
    }

    // A minute from the first count: the figure has the time sampled so far behind it.
    assertThat(gauge("anteroom.room.new.users.per.minute")).isCloseTo(120, within(3.0));
    assertThat(gauge("anteroom.room.waiting")).isEqualTo(7.0);
    assertThat(gauge("anteroom.room.active.users")).isEqualTo(120.0);
    assertThat(worker.errors()).isZero();
  }
}
