package io.anteroom.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The worker as it ships: the shared config/anteroom.yml, a real Redis, the actuator. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"ANTEROOM_CONFIG=../config/anteroom.yml", "anteroom.worker.tick=100ms"})
@AutoConfigureMetrics
class AdmissionWorkerApplicationIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("anteroom.redis.uri", redis::uri);
  }

  @Autowired AnteroomProperties properties;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @LocalServerPort int port;

  @Test
  void readsTheShippedRoomConfiguration() {
    assertThat(properties.policies()).containsKey("shop");
    assertThat(properties.policies().get("shop").admitPerSecond()).isEqualTo(1.0);
    assertThat(new QueueKeys(properties.keyPrefix()).active()).isEqualTo("wr:active");
  }

  @Test
  void admitsTheLineOfAnActiveQueueAndReportsIt() throws Exception {
    QueueId queue = QueueId.of("shop", "1");
    var policy = properties.policies().get("shop");
    for (int i = 0; i < 3; i++) {
      store.enqueue(queue, "visitor-" + i, policy).block();
    }
    active.activate(queue, Activation.MANUAL).block();

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(store.counts(queue).block().waiting()).isZero());

    assertThat(store.counts(queue).block().running()).isEqualTo(3);
    assertThat(get("/actuator/health")).contains("\"status\":\"UP\"");
    assertThat(get("/actuator/prometheus"))
        .contains("anteroom_worker_admitted_total{room=\"shop\"}");
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    return response.body();
  }
}
