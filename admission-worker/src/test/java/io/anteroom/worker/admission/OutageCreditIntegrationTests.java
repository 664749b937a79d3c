package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueCounts;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
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
 * up; without an outage, the same silence does give them up.
 */
class OutageCreditIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final Duration ABANDON_AFTER = Duration.ofSeconds(2);

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final RoomPolicy policy =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of("admit-per-second", "1000", "abandon-after", ABANDON_AFTER.toMillis() + "ms"));
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
    store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
    active = new RedisActiveQueues(connector.commands(), keys);
    worker = new WorkerFixture(redis.uri(), "drop", policy, "100ms");
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
    worker.loop.start();
    await().atMost(Duration.ofSeconds(10)).until(this::reached);
    lineUpThree();

    redis.server().pause();
    outlastAbandonAfterThenResume();

    admitAllThree();
  }

  @Test
  void anOutageBeforeTheWorkersFirstReadCostsNobodyTheirPlace() {
    lineUpThree();
    redis.server().pause();
    worker.loop.start();
    outlastAbandonAfterThenResume();

    admitAllThree();
  }

  @Test
  void withoutAnOutageTheSameSilenceGivesThePlacesUp() {
    worker.loop.start();
    lineUpThree();

    sleep(ABANDON_AFTER.plusSeconds(1));

    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> counts().waiting() == 0);
    assertThat(counts().abandoned()).isEqualTo(3);
    assertThat(counts().running()).isZero();
  }

  @Test
  void afterTheOutageTheLineHasAbandonAfterToPollAgain() {
    worker.loop.start();
    await().atMost(Duration.ofSeconds(10)).until(this::reached);
    lineUpThree();
    redis.server().pause();
    outlastAbandonAfterThenResume();

    sleep(ABANDON_AFTER.plusSeconds(1));
    active.activate(queue, Activation.MANUAL).block();

    await().atMost(Duration.ofSeconds(10)).until(() -> counts().waiting() == 0);
    assertThat(counts().abandoned()).isEqualTo(3);
  }

  /** Redis stays paused for longer than abandon-after, then answers the worker again. */
  void outlastAbandonAfterThenResume() {
    sleep(ABANDON_AFTER.plusSeconds(1));
    redis.server().resume();
    await().atMost(Duration.ofSeconds(10)).until(this::reached);
  }

  /** Turns the queue on and checks that all three were admitted, none given up. */
  void admitAllThree() {
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> counts().waiting() == 0);
    assertThat(counts().running()).isEqualTo(3);
    assertThat(counts().abandoned()).isZero();
  }

  /** The worker's loop has ticked against Redis since it came back. */
  boolean reached() {
    double before = worker.meters.counter("anteroom.worker.ticks.failed").count();
    sleep(Duration.ofMillis(300));
    return worker.meters.counter("anteroom.worker.ticks.failed").count() == before;
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
