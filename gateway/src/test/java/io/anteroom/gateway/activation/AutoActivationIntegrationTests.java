package io.anteroom.gateway.activation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApplication;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.TimingSensitive;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Traffic turns queues on and off by itself: gateways count requests per item and flush them to
 * Redis about once a second; a worker turns a quiet, empty queue off after the cool-down. The room
 * turns a queue on above 20 requests a second over 2 seconds, counts it quiet below 5, and admits
 * 50 a second.
 */
@GatewayIntegrationTest(
    properties = {
      AutoActivationIntegrationTests.ACTIVATE_ABOVE,
      AutoActivationIntegrationTests.DEACTIVATE_BELOW,
      AutoActivationIntegrationTests.WINDOW,
      AutoActivationIntegrationTests.COOL_DOWN,
      AutoActivationIntegrationTests.RATE,
      AutoActivationIntegrationTests.MAX_ACTIVE
    })
@SystemTest
@TimingSensitive
class AutoActivationIntegrationTests {

  static final String ACTIVATE_ABOVE = "anteroom.rooms.shop.activate-above=20";
  static final String DEACTIVATE_BELOW = "anteroom.rooms.shop.deactivate-below=5";
  static final String WINDOW = "anteroom.rooms.shop.activation-window=2s";
  static final String COOL_DOWN = "anteroom.rooms.shop.cool-down=3s";
  static final String RATE = "anteroom.rooms.shop.admit-per-second=50";
  static final String MAX_ACTIVE = "anteroom.rooms.shop.max-active=100000";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired QueueKeys keys;
  @Autowired RoomPolicies policies;

  @Test
  void aBurstOnOneItemTurnsItsQueueOnWhileItsNeighbourPassesAndOffAfterTheCoolDown()
      throws Exception {
    QueueId hot = QueueId.of("shop", "1");
    QueueId quiet = QueueId.of("shop", "2");
    CopyOnWriteArrayList<Map<QueueId, Activation>> seen = new CopyOnWriteArrayList<>();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(
        () -> seen.add(active.list().block()), 0, 100, TimeUnit.MILLISECONDS);
    warmUp();
    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "250ms");
        Traffic neighbour = Traffic.start(port, "/products/2", 2)) {
      long burstEnded;
      try (Traffic burst = Traffic.start(port, "/products/1", 120)) {
        await()
            .atMost(Duration.ofSeconds(2))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> active.list().block().get(hot) == Activation.AUTO);
        await().atMost(Duration.ofSeconds(30)).until(() -> burst.waiting() > 0);
        // Held while the burst lasts: no flapping.
        await()
            .during(Duration.ofSeconds(2))
            .atMost(Duration.ofSeconds(4))
            .until(() -> active.list().block().containsKey(hot));
        assertThat(burst.other()).isZero();
        burstEnded = burst.lastAnswered();
      }
      // The line drains at 50/s, traffic falls below 5/s, and after 3 s of quiet it is off.
      await().atMost(Duration.ofSeconds(30)).until(() -> !active.list().block().containsKey(hot));
      assertThat(Duration.ofNanos(System.nanoTime() - burstEnded))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
      assertThat(neighbour.waiting()).isZero();
      assertThat(neighbour.other()).isZero();
      assertThat(neighbour.origin()).isPositive();
    } finally {
      sampler.shutdownNow();
    }
    assertThat(seen).noneMatch(s -> s.containsKey(quiet));
  }

  @Test
  void twoGatewaysEachBelowTheThresholdTogetherTurnTheQueueOn() {
    QueueId item = QueueId.of("shop", "3");
    try (ConfigurableApplicationContext second = startSecondGateway()) {
      int secondPort = ((WebServerApplicationContext) second).getWebServer().getPort();
      try (Traffic one = Traffic.start(port, "/products/3", 14)) {
        // One gateway's 14/s stays under 20/s for several windows.
        await()
            .during(Duration.ofSeconds(4))
            .atMost(Duration.ofSeconds(15))
            .until(() -> !active.list().block().containsKey(item));
        assertThat(one.waiting()).isZero();
        try (Traffic two = Traffic.start(secondPort, "/products/3", 14)) {
          await()
              .atMost(Duration.ofSeconds(15))
              .until(() -> active.list().block().get(item) == Activation.AUTO);
        }
      }
    }
  }

  /** A running gateway is warm: the first requests of a fresh JVM are many times slower. */
  private void warmUp() {
    for (int i = 0; i < 200; i++) {
      new Visitor(port).json("/products/" + (900 + i % 20));
    }
  }

  private ConfigurableApplicationContext startSecondGateway() {
    // Command-line arguments, so they win over config/anteroom.yml as the test's properties do.
    return new SpringApplicationBuilder(GatewayApplication.class)
        .run(
            Stream.of(
                    GatewayTestSetup.CONFIG,
                    GatewayTestSetup.KEYS,
                    ACTIVATE_ABOVE,
                    DEACTIVATE_BELOW,
                    WINDOW,
                    COOL_DOWN,
                    RATE,
                    MAX_ACTIVE,
                    "anteroom.gateway.cookie-secure=false",
                    "anteroom.redis.uri=" + redis.uri(),
                    "ANTEROOM_ORIGIN=" + origin.url(),
                    "server.port=0",
                    "management.server.port=0")
                .map(property -> "--" + property)
                .toArray(String[]::new));
  }
}
