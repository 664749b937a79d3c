package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisCluster;
import io.anteroom.worker.admission.WorkerFixture;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway as it ships, configured with {@code anteroom.redis.cluster-nodes} for a real Redis
 * Cluster of three primaries and three replicas: an operator's activation reaches it through
 * pub/sub alone (its periodic re-read is an hour away), visitors line up in order, and a worker on
 * the same Cluster lets them in at the rate the operator set live.
 */
@GatewayIntegrationTest(properties = {"anteroom.gateway.mirror-refresh=1h"})
@SystemTest
class ClusterModeGatewayIntegrationTests {

  static final int VISITORS = 30;
  static RedisCluster cluster;
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    cluster = RedisCluster.start();
    registry.add("anteroom.redis.cluster-nodes", cluster::seeds);
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  final QueueId queue = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicies policies;
  @Autowired QueueKeys keys;
  @Autowired SettingsStore settings;

  @Test
  void visitorsLineUpAndGetInThroughTheCluster() {
    assertThat(mirror.isActive(queue)).isFalse();
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(queue));

    List<Visitor> visitors = new ArrayList<>();
    List<Long> positions = new ArrayList<>();
    for (int i = 0; i < VISITORS; i++) {
      Visitor visitor = new Visitor(port);
      HttpResponse<String> first = visitor.json("/products/1");
      assertThat(first.statusCode()).isEqualTo(200);
      visitors.add(visitor);
      positions.add(Math.max(0, Visitor.field(first.body(), "position")));
    }
    int straightIn = (int) positions.stream().takeWhile(p -> p == 0).count();
    assertThat(straightIn).isBetween(1, 3);
    for (int i = straightIn; i < VISITORS; i++) {
      assertThat(positions.get(i)).isEqualTo(i - straightIn + 1);
    }

    // The shipped room admits one per second; the operator raises it live for the worker.
    settings.put("shop", null, Map.of("admit-per-second", "50")).block();
    RedisProperties redis =
        RedisProperties.cluster(
            List.of(cluster.seeds().split(",")),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            10_000);
    // A visitor told "admitted" trades the ticket for a pass, so each is asked until then only.
    List<Visitor> waiting = new ArrayList<>(visitors.subList(straightIn, VISITORS));
    try (WorkerFixture worker = WorkerFixture.running(redis, keys, policies, "100ms")) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(() -> assertThat(stillWaiting(waiting)).isEmpty());
    }
    for (Visitor visitor : visitors) {
      assertThat(visitor.page("/products/1").body()).contains("Product page");
    }
  }

  private static List<Visitor> stillWaiting(List<Visitor> waiting) {
    waiting.removeIf(
        visitor -> {
          String state = state(visitor);
          assertThat(state).isIn("waiting", "admitted");
          return "admitted".equals(state);
        });
    return waiting;
  }

  private static String state(Visitor visitor) {
    return Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state");
  }
}
