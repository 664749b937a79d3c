package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueCounts;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * People in line keep their places through a Redis outage longer than {@code abandon-after}: no
 * poll could reach Redis meanwhile. Redis is stopped with SIGSTOP (it keeps its data), the line's
 * queue is turned on once Redis answers again, and the worker admits them instead of giving them
 * up; without an outage, the same silence does give them up. Time is the worker's clock, moved by
 * hand, and the worker ticks by hand: no test waits for time to pass.
 */
@SystemTest
class OutageCreditIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final Duration ABANDON_AFTER = Duration.ofSeconds(2);
  static final Duration TICK = Duration.ofMillis(100);

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final RoomPolicy policy =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of("admit-per-second", "1000", "abandon-after", ABANDON_AFTER.toMillis() + "ms"));
  final MutableClock clock = MutableClock.startingAt2026();
  RedisConnector connector;
  QueueStore store;
  RedisActiveQueues active;
  WorkerFixture worker;

  @BeforeEach
  void setUp() {
    connector =
        RedisConnector.connect(
            new RedisProperties(
                redis.uri(), Duration.ofSeconds(10), Duration.ofSeconds(2), 10_000));
    store = new RedisQueueStore(connector.commands(), keys, clock);
    active = new RedisActiveQueues(connector.commands(), keys);
    worker = new WorkerFixture(redis.uri(), "drop", policy, TICK.toMillis() + "ms", clock);
  }

  @AfterEach
  void tearDown() {
    worker.close();
    connector.close();
  }

  /** Three visitors wait in the line of a queue that is still off, having polled just now. */
  void lineUpThree() {
    RoomPolicy paused = PolicyParser.apply("t", policy, Map.of("mode", "paused"));
    for (String visitor : new String[] {"a", "b", "c"}) {
      store.enqueue(queue, visitor, paused).block();
    }
  }

  QueueCounts counts() {
    return store.counts(queue).block();
  }

  @Test
  void anOutageLongerThanAbandonAfterCostsNobodyTheirPlace() {
    tick();
    lineUpThree();

    redis.server().pause();
    outlastAbandonAfterThenResume();

    admitAllThree();
  }

  @Test
  void anOutageBeforeTheWorkersFirstReadCostsNobodyTheirPlace() {
    lineUpThree();
    redis.server().pause();
    // The worker starts now, while Redis is away; from here on it ticks by hand.
    worker.loop.start();
    worker.loop.stop();
    outlastAbandonAfterThenResume();

    admitAllThree();
  }

  @Test
  void withoutAnOutageTheSameSilenceGivesThePlacesUp() {
    tick();
    lineUpThree();

    ticksFor(ABANDON_AFTER.plusSeconds(1));

    active.activate(queue, Activation.MANUAL).block();
    tick();
    assertThat(counts().waiting()).isZero();
    assertThat(counts().abandoned()).isEqualTo(3);
    assertThat(counts().running()).isZero();
  }

  @Test
  void afterTheOutageTheLineHasAbandonAfterToPollAgain() {
    tick();
    lineUpThree();
    redis.server().pause();
    outlastAbandonAfterThenResume();

    ticksFor(ABANDON_AFTER.plusSeconds(1));
    active.activate(queue, Activation.MANUAL).block();
    tick();

    assertThat(counts().waiting()).isZero();
    assertThat(counts().abandoned()).isEqualTo(3);
  }

  /**
   * While Redis is paused a tick fails; longer than abandon-after passes on the worker's clock;
   * then Redis answers the worker's next tick.
   */
  void outlastAbandonAfterThenResume() {
    double failed = failedTicks();
    tick();
    assertThat(failedTicks()).as("a tick while Redis is paused").isEqualTo(failed + 1);
    clock.advance(ABANDON_AFTER.plusSeconds(1));
    redis.server().resume();
    tick();
    assertThat(failedTicks()).as("a tick once Redis is back").isEqualTo(failed + 1);
  }

  /** Turns the queue on and checks that all three were admitted, none given up. */
  void admitAllThree() {
    active.activate(queue, Activation.MANUAL).block();
    tick();
    assertThat(counts().waiting()).isZero();
    assertThat(counts().running()).isEqualTo(3);
    assertThat(counts().abandoned()).isZero();
  }

  /** Ticks every {@link #TICK} on the worker's clock for {@code length}, Redis answering each. */
  void ticksFor(Duration length) {
    for (long i = 0; i < length.dividedBy(TICK); i++) {
      clock.advance(TICK);
      tick();
    }
  }

  /** One tick of the worker, now on its clock. */
  void tick() {
    worker.loop.runOnce().block();
  }

  double failedTicks() {
    return worker.meters.counter("anteroom.worker.ticks.failed").count();
  }
}
