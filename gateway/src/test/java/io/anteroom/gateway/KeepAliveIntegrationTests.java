package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Many answers that wait on Redis, one after another on one keep-alive connection, as a browser
 * sends them. Answers completed on Lettuce's I/O threads once left such a connection hanging after
 * some dozens of requests.
 */
@GatewayIntegrationTest(properties = {"anteroom.rooms.shop.admit-per-second=0.01"})
class KeepAliveIntegrationTests {

  static final int REQUESTS = 600;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  final QueueId queue = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;

  @BeforeEach
  void turnOn() {
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(queue));
  }

  @Test
  void newcomersOnOneConnectionAreAllAnswered() {
    Visitor client = new Visitor(port);
    for (int i = 0; i < REQUESTS; i++) {
      // A fresh ticket each time: every request is a newcomer joining the line.
      client.clearCookies();
      assertThat(client.json("/products/1").statusCode()).as("request %d", i).isEqualTo(200);
    }
  }

  @Test
  void pollsOnOneConnectionAreAllAnswered() {
    Visitor visitor = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/1");
    assertThat(Visitor.text(visitor.json("/products/1").body(), "state")).isEqualTo("waiting");
    for (int i = 0; i < REQUESTS; i++) {
      assertThat(visitor.json("/_anteroom/status?room=shop").statusCode())
          .as("poll %d", i)
          .isEqualTo(200);
    }
  }
}
