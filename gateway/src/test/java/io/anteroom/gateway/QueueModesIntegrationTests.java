package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** What visitors without a pass meet in each mode, set live for a room or a single queue. */
@GatewayIntegrationTest(properties = {"anteroom.gateway.max-queues-per-room=3"})
class QueueModesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void reset() {
    origin.resetRequests();
    mirror.refresh().block();
    policies.refresh().block();
  }

  /**
   * Sets {@code mode} for the room (item null) or one queue, and waits until the gateway has it.
   */
  void mode(String item, String mode) {
    settings.put("shop", item, Map.of("mode", mode)).block();
    QueueId queue = QueueId.of("shop", item == null ? "any" : item);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> policies.policy(queue).mode().value().equals(mode));
  }

  @Test
  void queueAllHoldsAQuietItemAndTurnsItsQueueOn() {
    mode(null, "queue-all");
    Visitor.lineUpSomeone(port, "/products/5");

    HttpResponse<String> response = new Visitor(port).json("/products/5");

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> active.list().block().get(QueueId.of("shop", "5")) == Activation.AUTO);
  }

  @Test
  void itemsRequestedOnceInQueueAllTurnNoQueueOn() {
    mode(null, "queue-all");
    for (int i = 1; i <= 6; i++) {
      // The line of a new item is empty and its bucket full: the one visitor goes straight in.
      assertThat(new Visitor(port).json("/products/" + (900 + i)).body()).contains("Product page");
    }

    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(2))
        .until(() -> active.list().block().isEmpty());
  }

  @Test
  void itemsWithSomeoneLeftWaitingInQueueAllTurnOnNoMoreQueuesThanAllowed() {
    mode(null, "queue-all");
    for (int i = 1; i <= 6; i++) {
      Visitor.lineUpSomeone(port, "/products/" + (950 + i));
      long expected = Math.min(i, 3);
      await().atMost(Duration.ofSeconds(5)).until(() -> mirror.activeIn("shop") == expected);
    }

    assertThat(active.list().block()).hasSize(3);
    assertThat(meters.counter("anteroom.gateway.activations.refused", "room", "shop").count())
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void aLineManyWaitInTakesTheSlotOfAnAutomaticQueueOneWaitsIn() {
    mode(null, "queue-all");
    for (int i = 1; i <= 3; i++) {
      Visitor.lineUpSomeone(port, "/products/" + (980 + i));
      long expected = i;
      await().atMost(Duration.ofSeconds(5)).until(() -> mirror.activeIn("shop") == expected);
    }
    QueueId hot = QueueId.of("shop", "990");

    for (int i = 0; i < 3; i++) {
      Visitor.lineUpSomeone(port, "/products/990");
    }

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> active.list().block().get(hot) == Activation.AUTO);
    assertThat(active.list().block()).hasSize(3);
    assertThat(meters.counter("anteroom.gateway.activations.evicted", "room", "shop").count())
        .isOne();
  }

  @Test
  void aPausedLineIsTurnedOnWhenAVisitorComesBackNotWhenTheyArrive() {
    QueueId queue = QueueId.of("shop", "960");
    mode("960", "paused");
    Visitor visitor = new Visitor(port);

    assertThat(Visitor.text(visitor.json("/products/960").body(), "state")).isEqualTo("paused");
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(2))
        .until(() -> !active.list().block().containsKey(queue));

    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("paused");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> active.list().block().get(queue) == Activation.AUTO);
  }

  @Test
  void aPreQueueLineIsTurnedOnOnceASecondVisitorJoinsIt() {
    QueueId queue = QueueId.of("shop", "970");
    settings
        .put(
            "shop",
            "970",
            Map.of("event-start", Instant.now().plus(Duration.ofHours(1)).toString()))
        .block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> policies.policy(queue).fairness().preQueue(Instant.now()));

    assertThat(Visitor.text(new Visitor(port).json("/products/970").body(), "state"))
        .isEqualTo("pre-queue");
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(2))
        .until(() -> !active.list().block().containsKey(queue));

    assertThat(Visitor.text(new Visitor(port).json("/products/970").body(), "state"))
        .isEqualTo("pre-queue");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> active.list().block().get(queue) == Activation.AUTO);
  }

  @Test
  void pausedQueueKeepsNewcomersInLineEvenWithRoomAndSaysSo() {
    mode("6", "paused");
    Visitor visitor = new Visitor(port);

    HttpResponse<String> response = visitor.json("/products/6");
    HttpResponse<String> poll = visitor.json("/_anteroom/status?room=shop");
    HttpResponse<String> page = new Visitor(port).page("/products/6");

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("paused");
    assertThat(Visitor.field(response.body(), "position")).isEqualTo(1);
    assertThat(Visitor.text(poll.body(), "state")).isEqualTo("paused");
    assertThat(page.body()).contains("Admission is paused").doesNotContain("id=\"paused\" hidden");
    origin.verify(0, getRequestedFor(urlPathEqualTo("/products/6")));
    assertThat(new Visitor(port).json("/products/7").body()).contains("Product page");
  }

  @Test
  void closedQueueTurnsNewcomersAwayButKeepsSessionsAndItsLine() {
    QueueId queue = QueueId.of("shop", "8");
    Visitor inside = new Visitor(port);
    assertThat(inside.json("/products/8").body()).contains("Product page");
    Visitor waiter = new Visitor(port);
    mode("8", "paused");
    assertThat(Visitor.text(waiter.json("/products/8").body(), "state")).isEqualTo("paused");

    mode("8", "closed");

    HttpResponse<String> page = new Visitor(port).page("/products/8");
    assertThat(page.statusCode()).isEqualTo(503);
    assertThat(page.body()).contains("This is closed");
    assertThat(new Visitor(port).json("/products/8").body()).contains("\"state\":\"closed\"");
    assertThat(inside.json("/products/8").body()).contains("Product page");
    // The line is kept (closed-line: keep): the waiter still has a place, and polls keep it.
    HttpResponse<String> poll = waiter.json("/_anteroom/status?room=shop");
    assertThat(Visitor.text(poll.body(), "state")).isEqualTo("closed");
    assertThat(Visitor.field(poll.body(), "position")).isEqualTo(1);
    assertThat(waiter.page("/products/8").body())
        .contains("Entry is closed for now")
        .doesNotContain("id=\"closed\" hidden");

    settings.remove("shop", "8", List.of("mode")).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> policies.policy(queue).mode() == Mode.QUEUE);
    HttpResponse<String> reopened = waiter.json("/_anteroom/status?room=shop");
    assertThat(Visitor.text(reopened.body(), "state")).isIn("waiting", "admitted");
    assertThat(reopened.body()).doesNotContain("\"requeued\":true");
  }

  @Test
  void passthroughLetsEveryoneIntoAQueueThatIsOn() {
    QueueId queue = QueueId.of("shop", "9");
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(queue));
    Visitor.lineUpSomeone(port, "/products/9");

    mode("9", "passthrough");

    for (Visitor visitor : List.of(new Visitor(port), new Visitor(port))) {
      assertThat(visitor.json("/products/9").body()).contains("Product page");
    }
    assertThat(policies.policy(queue).mode()).isEqualTo(Mode.PASSTHROUGH);
  }
}
