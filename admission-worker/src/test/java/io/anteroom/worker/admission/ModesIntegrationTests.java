package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What the worker does by a queue's mode and cause, one tick at a time, on a real Redis. */
class ModesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final RoomPolicy policy =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "admit-per-second", "1000",
              "activate-above", "10",
              "activation-window", "1s",
              "cool-down", "1s"));
  RedisConnector redisConnector;
  QueueStore store;
  RedisActiveQueues active;
  RedisSettingsStore settings;
  WorkerFixture worker;

  @BeforeEach
  void setUp() {
    redisConnector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 10_000));
    store = new RedisQueueStore(redisConnector.commands(), keys, Clock.systemUTC());
    active = new RedisActiveQueues(redisConnector.commands(), keys);
    settings = new RedisSettingsStore(redisConnector.commands(), keys);
    worker = new WorkerFixture(redis.uri(), "drop", policy, "250ms");
  }

  @AfterEach
  void tearDown() {
    worker.close();
    redisConnector.close();
  }

  /** Three visitors in line: the queue is paused while they join, so none goes straight in. */
  void lineUpThree(Activation cause) {
    settings.put("drop", queue.item(), Map.of("mode", "paused")).block();
    RoomPolicy paused = PolicyParser.apply("t", policy, Map.of("mode", "paused"));
    for (String visitor : new String[] {"a", "b", "c"}) {
      store.enqueue(queue, visitor, paused).block();
    }
    active.activate(queue, cause).block();
  }

  long waiting() {
    return store.counts(queue).block().waiting();
  }

  @Test
  void pausedQueueKeepsItsLineAndResumingAdmitsIt() {
    lineUpThree(Activation.MANUAL);

    worker.loop.runOnce().block();
    assertThat(waiting()).isEqualTo(3);

    settings.remove("drop", queue.item(), java.util.List.of("mode")).block();
    worker.loop.runOnce().block();
    assertThat(waiting()).isZero();
    assertThat(store.counts(queue).block().running()).isEqualTo(3);
  }

  @Test
  void closedQueueWithItsLineClearedLosesThePlacesAndAdmitsNobody() {
    lineUpThree(Activation.MANUAL);
    settings.put("drop", queue.item(), Map.of("mode", "closed", "closed-line", "clear")).block();

    worker.loop.runOnce().block();

    assertThat(waiting()).isZero();
    assertThat(store.counts(queue).block().running()).isZero();
  }

  @Test
  void duringAnEventsPreQueueNobodyIsAdmittedAndFromItsStartEveryoneIs() {
    lineUpThree(Activation.MANUAL);
    String start = Instant.now().plusSeconds(3600).toString();
    settings.put("drop", queue.item(), Map.of("mode", "queue", "event-start", start)).block();

    worker.loop.runOnce().block();
    assertThat(waiting()).isEqualTo(3);

    String past = Instant.now().minusSeconds(1).toString();
    settings.put("drop", queue.item(), Map.of("event-start", past)).block();
    worker.loop.runOnce().block();
    assertThat(waiting()).isZero();
    assertThat(store.counts(queue).block().running()).isEqualTo(3);
  }

  @Test
  void theWorkerSweepsVisitorsWhoLeftThePreQueue() {
    lineUpThree(Activation.MANUAL);
    String start = Instant.now().plusSeconds(3600).toString();
    settings
        .put(
            "drop",
            queue.item(),
            Map.of("mode", "queue", "event-start", start, "abandon-after", "1ms"))
        .block();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              worker.loop.runOnce().block();
              return waiting() == 0;
            });
    assertThat(store.counts(queue).block().running()).isZero();
    assertThat(store.counts(queue).block().abandoned()).isEqualTo(3);
  }

  @Test
  void closedQueueKeepingItsLineAdmitsNobody() {
    lineUpThree(Activation.MANUAL);
    settings.put("drop", queue.item(), Map.of("mode", "closed")).block();

    worker.loop.runOnce().block();

    assertThat(waiting()).isEqualTo(3);
  }

  @Test
  void queueTurnedOnByTrafficIsTurnedOffOnceEmptyAndQuietForTheCoolDown() {
    active.activate(queue, Activation.AUTO).block();
    new RedisTrafficStore(redisConnector.commands(), keys, Clock.systemUTC())
        .record(List.of(new TrafficStore.Hits(queue, 5, policy)))
        .blockLast();

    worker.loop.runOnce().block();
    assertThat(active.list().block()).containsKey(queue);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              worker.loop.runOnce().block();
              return !active.list().block().containsKey(queue);
            });
  }

  @Test
  void queueThatHoldsEveryoneIsTurnedOffAtTheSecondTickWithNobodyWaitingWhateverItsTraffic() {
    lineUpThree(Activation.AUTO);
    settings.put("drop", queue.item(), Map.of("mode", "queue-all")).block();
    new RedisTrafficStore(redisConnector.commands(), keys, Clock.systemUTC())
        .record(List.of(new TrafficStore.Hits(queue, 1_000, policy)))
        .blockLast();

    // The first tick admits the line; the next finds nobody waiting, the one after turns it off.
    worker.loop.runOnce().block();
    assertThat(waiting()).isZero();
    worker.loop.runOnce().block();
    worker.loop.runOnce().block();

    assertThat(active.list().block()).doesNotContainKey(queue);
    long ttl = policy.idleTimeToLive().toMillis();
    assertThat(Long.parseLong(redis.server().command("PTTL", keys.running(queue))))
        .isBetween(ttl - 5_000, ttl);
  }

  @Test
  void queueWithPeopleInLineOrTurnedOnByHandStaysOn() {
    lineUpThree(Activation.AUTO);
    QueueId manual = QueueId.of("drop", "manual");
    active.activate(manual, Activation.MANUAL).block();

    // Twice the cool-down of ticks, every one of them keeping both on.
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(4))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              worker.loop.runOnce().block();
              return active.list().block().keySet().containsAll(java.util.List.of(queue, manual));
            });
  }
}
