package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisIdleLines;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Passes given while queues are off, registered in Redis in batches: a flush registers the queues
 * with the most passes, at most a bounded number of them, and their running sets are idle lines the
 * room keeps within its bound.
 */
class PassRegistrarIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final int IDLE_LINES = 120;

  final QueueKeys keys = new QueueKeys("wr");
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  RedisConnector connector;
  RedisClient client;
  RedisCommands<String, String> direct;
  PassRegistrar registrar;

  @BeforeEach
  void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    client = RedisClient.create(redis.uri());
    direct = client.connect().sync();
    RedisIdleLines idle =
        new RedisIdleLines(connector.commands(), keys, Clock.systemUTC(), IDLE_LINES);
    RoomPolicies policies =
        new RoomPolicies(
            Map.of("shop", RoomPolicy.DEFAULTS),
            new RedisSettingsStore(connector.commands(), keys),
            Clock.systemUTC());
    registrar =
        new PassRegistrar(
            new RedisQueueStore(connector.commands(), keys, Clock.systemUTC(), idle),
            new RoomPolicyMirror(policies, Clock.systemUTC()),
            meters,
            Clock.systemUTC());
  }

  @AfterEach
  void close() {
    client.shutdown();
    connector.close();
  }

  double dropped() {
    return meters.counter("anteroom.gateway.registrations.dropped").count();
  }

  @Test
  void aFlushRegistersTheQueuesWithTheMostPassesUpToItsBoundAndCountsTheRestDropped() {
    QueueId busy = QueueId.of("shop", "busy");
    for (int i = 0; i < 3; i++) {
      registrar.register(busy, "v" + i);
    }
    int once = PassRegistrar.MAX_QUEUES_PER_FLUSH + 50;
    for (int i = 0; i < once; i++) {
      registrar.register(QueueId.of("shop", "once-" + i), "w" + i);
    }

    registrar.flush().block();

    assertThat(direct.zcard(keys.running(busy))).isEqualTo(3);
    assertThat(direct.keys("wr:{shop}:*:running")).hasSize(PassRegistrar.MAX_QUEUES_PER_FLUSH);
    assertThat(dropped()).isEqualTo(51);
  }

  @Test
  void theRunningSetsOfRegisteredPassesStayWithinTheRoomsBoundOfIdleLines() {
    for (int flush = 0; flush < 3; flush++) {
      for (int i = 0; i < PassRegistrar.MAX_QUEUES_PER_FLUSH; i++) {
        registrar.register(QueueId.of("shop", "f" + flush + "-" + i), "v");
      }
      registrar.flush().block();
    }

    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () -> {
              assertThat(direct.zcard(keys.idle("shop"))).isEqualTo(IDLE_LINES);
              assertThat(direct.keys("wr:{shop}:*:running")).hasSize(IDLE_LINES);
            });
    assertThat(direct.pttl(keys.running(QueueId.of("shop", "f2-0")))).isPositive();
  }
}
