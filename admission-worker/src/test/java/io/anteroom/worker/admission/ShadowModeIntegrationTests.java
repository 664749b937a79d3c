package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.shadow.RedisShadowLines;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.Gauge;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The worker's tick on the virtual line of a queue in shadow mode, one tick at a time on a fixed
 * clock against a real Redis: it admits from the virtual line at the rate, records the waits, keeps
 * the keys' time to live, publishes the gauges, and leaves the real line alone.
 */
class ShadowModeIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueKeys shadow = keys.shadow();
  final QueueId queue = QueueId.of("drop", "sneaker");

  /** 10 per second with a bucket of 1 s, sessions of an hour, abandon after 30 s. */
  final RoomPolicy policy =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "mode", "shadow",
              "admit-per-second", "10",
              "session-duration", "1h",
              "abandon-after", "30s",
              "activate-above", "10",
              "activation-window", "1s",
              "cool-down", "1s"));

  MutableClock clock;
  RedisConnector connector;
  RedisClient client;
  StatefulRedisConnection<String, String> connection;
  RedisCommands<String, String> sync;
  ShadowLines lines;
  RedisActiveQueues active;
  WorkerFixture worker;

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 10_000));
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    sync = connection.sync();
    lines = new RedisShadowLines(connector.commands(), keys, clock);
    active = new RedisActiveQueues(connector.commands(), keys);
    worker = new WorkerFixture(redis.uri(), "drop", policy, "250ms", clock);
  }

  @AfterEach
  void tearDown() {
    worker.close();
    connector.close();
    connection.close();
    client.shutdown();
  }

  /** {@code count} newcomers join the virtual line with an empty bucket, and the queue is on. */
  void lineUp(int count, Activation cause) {
    sync.hset(shadow.state(queue), Map.of("tokens", "0", "refill", "" + clock.millis()));
    for (int i = 0; i < count; i++) {
      lines.store().join(queue, "v" + i, ShadowLines.virtual(policy)).block();
    }
    active.activate(queue, cause).block();
  }

  void tick(Duration after) {
    clock.advance(after);
    worker.loop.runOnce().block();
  }

  Map<String, Double> gauge(String name) {
    Map<String, Double> values = new HashMap<>();
    for (Gauge gauge : worker.meters.find(name).tag("room", "drop").gauges()) {
      String quantile = gauge.getId().getTag("quantile");
      values.put(
          gauge.getId().getTag("queue") + (quantile == null ? "" : "@" + quantile), gauge.value());
    }
    return values;
  }

  @Test
  void shadowTickAdmitsFromTheVirtualLineAtTheRateAndRecordsTheWaits() {
    lineUp(30, Activation.MANUAL);

    tick(Duration.ofSeconds(1));
    assertThat(sync.zcard(shadow.running(queue))).isEqualTo(10);
    assertThat(sync.zcard(shadow.waiting(queue))).isEqualTo(20);

    tick(Duration.ofSeconds(1));
    tick(Duration.ofSeconds(1));
    assertThat(sync.zcard(shadow.running(queue))).isEqualTo(30);
    assertThat(sync.lrange(shadow.waits(queue), 0, -1)).containsOnly("1000", "2000").hasSize(20);
    assertThat(worker.meters.counter("anteroom.shadow.admitted", "room", "drop").count())
        .isEqualTo(30);
  }

  @Test
  void shadowTickPublishesTheGauges() {
    lineUp(30, Activation.MANUAL);

    // 10 admitted at each of 1 s, 2 s and 3 s; the last tick reads the waits of the third.
    for (int i = 0; i < 4; i++) {
      tick(Duration.ofSeconds(1));
    }

    assertThat(gauge("anteroom.shadow.waiting")).containsEntry("sneaker", 0.0);
    assertThat(gauge("anteroom.shadow.active")).containsEntry("sneaker", 30.0);
    assertThat(gauge("anteroom.shadow.wait"))
        .containsEntry("sneaker@0.5", 2.0)
        .containsEntry("sneaker@0.9", 3.0);

    active.deactivate(queue, Activation.MANUAL).block();
    worker.loop.runOnce().block();
    assertThat(gauge("anteroom.shadow.waiting")).isEmpty();
  }

  @Test
  void shadowTickLeavesTheRealLineAloneAndGivesTheVirtualOneATimeToLive() {
    lineUp(30, Activation.MANUAL);

    tick(Duration.ofSeconds(1));
    tick(Duration.ofSeconds(1));

    List<String> written = sync.keys("wr:*");
    assertThat(written).filteredOn(key -> key.startsWith("wr:{")).isEmpty();
    long ttl = policy.idleTimeToLive().toMillis();
    for (String key : written.stream().filter(k -> k.startsWith("wr:shadow:")).toList()) {
      assertThat(sync.pttl(key)).as(key).isBetween(ttl - 5_000, ttl);
    }
    assertThat(written)
        .contains(
            shadow.waiting(queue),
            shadow.running(queue),
            shadow.seen(queue),
            shadow.state(queue),
            shadow.waits(queue));
  }

  @Test
  void queueTurnedOnByTrafficStaysOnWhileItsVirtualLineHasPeople() {
    lineUp(100, Activation.AUTO);

    // Quiet traffic and an empty real line: in any other mode the queue would go off.
    for (int i = 0; i < 5; i++) {
      tick(Duration.ofSeconds(1));
      assertThat(active.list().block()).containsKey(queue);
    }

    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              tick(Duration.ofSeconds(5));
              return !active.list().block().containsKey(queue);
            });
    assertThat(sync.zcard(shadow.waiting(queue))).isZero();
  }
}
