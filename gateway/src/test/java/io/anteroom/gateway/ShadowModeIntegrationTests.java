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
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Shadow mode at the gateway: everyone reaches the origin with a pass, newcomers to a queue that is
 * on join its virtual line in the background, and nothing of the real line is written or moved.
 */
@GatewayIntegrationTest
class ShadowModeIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void reset() {
    origin.resetRequests();
    mirror.refresh().block();
    policies.refresh().block();
  }

  /** Puts {@code item} of the shop in shadow mode, turned on or not, and waits for the gateway. */
  QueueId shadow(String item, boolean on) {
    QueueId queue = QueueId.of("shop", item);
    settings.put("shop", item, Map.of("mode", "shadow")).block();
    if (on) {
      active.activate(queue, Activation.MANUAL).block();
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                policies.policy(queue).mode().value().equals("shadow")
                    && mirror.isActive(queue) == on);
    return queue;
  }

  /** People in the virtual line of {@code queue}, waiting or admitted. */
  long virtual(QueueId queue) {
    QueueKeys shadow = keys.shadow();
    return Long.parseLong(redis.server().command("ZCARD", shadow.waiting(queue)))
        + Long.parseLong(redis.server().command("ZCARD", shadow.running(queue)));
  }

  double joins(String outcome) {
    return meters
        .counter("anteroom.gateway.shadow.joins", "room", "shop", "outcome", outcome)
        .count();
  }

  boolean exists(String key) {
    return !"0".equals(redis.server().command("EXISTS", key));
  }

  @Test
  void shadowWhenTheQueueIsOnThenEveryoneEntersWithAPassAndNewcomersJoinTheVirtualLine() {
    QueueId queue = shadow("31", true);

    for (int i = 0; i < 5; i++) {
      Visitor visitor = new Visitor(port);
      assertThat(visitor.page("/products/31").body()).contains("Product page");
      assertThat(visitor.cookie("anteroom_pass_shop")).isNotNull();
      assertThat(visitor.cookie("anteroom_ticket_shop")).isNull();
    }

    origin.verify(5, getRequestedFor(urlPathEqualTo("/products/31")));
    await().atMost(Duration.ofSeconds(5)).until(() -> virtual(queue) == 5);
    assertThat(exists(keys.waiting(queue))).as("real waiting").isFalse();
    assertThat(exists(keys.seen(queue))).as("real seen").isFalse();
  }

  @Test
  void shadowWhenTheQueueIsOffThenNobodyJoinsTheVirtualLine() {
    QueueId queue = shadow("32", false);

    for (int i = 0; i < 3; i++) {
      assertThat(new Visitor(port).page("/products/32").body()).contains("Product page");
    }

    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> virtual(queue) == 0 && !exists(keys.shadow().state(queue)));
  }

  @Test
  void shadowWhenAVisitorComesBackWithTheirPassThenTheyDoNotJoinAgain() {
    QueueId queue = shadow("33", true);
    Visitor visitor = new Visitor(port);

    for (int i = 0; i < 4; i++) {
      assertThat(visitor.page("/products/33").body()).contains("Product page");
    }

    await().atMost(Duration.ofSeconds(5)).until(() -> virtual(queue) == 1);
    await().during(Duration.ofMillis(500)).until(() -> virtual(queue) == 1);
  }

  @Test
  void shadowWhenCookiesAreForgedThenEachRequestIsAtMostOneJoinAndTheRealLineIsUntouched() {
    QueueId queue = shadow("34", true);
    Visitor forger = new Visitor(port);
    forger.setCookie("anteroom_pass_shop", "garbage.garbage.garbage");
    forger.setCookie("anteroom_ticket_shop", "x".repeat(400));

    assertThat(forger.page("/products/34").body()).contains("Product page");
    Visitor other = new Visitor(port);
    other.setCookie("anteroom_ticket_shop", "someone-else.AAAA.BBBB");
    assertThat(other.page("/products/34").body()).contains("Product page");

    await().atMost(Duration.ofSeconds(5)).until(() -> virtual(queue) == 2);
    await().during(Duration.ofMillis(500)).until(() -> virtual(queue) == 2);
    assertThat(exists(keys.waiting(queue))).as("real waiting").isFalse();
    assertThat(redis.server().command("ZRANGE", keys.shadow().waiting(queue), "0", "-1"))
        .doesNotContain("someone-else");
  }

  @Test
  void shadowWhenAVisitorWritesThenTheyPassButDoNotJoin() {
    QueueId queue = shadow("35", true);

    HttpResponse<String> post =
        new Visitor(port)
            .send(
                java.net.http.HttpRequest.newBuilder()
                    .uri(java.net.URI.create("http://localhost:" + port + "/products/35"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("x")));

    assertThat(post.statusCode()).isLessThan(500);
    await().during(Duration.ofMillis(500)).until(() -> virtual(queue) == 0);
  }

  @Test
  void shadowWhenRedisIsUnreachableThenVisitorsStillPassAndTheJoinsAreCountedAsLost() {
    shadow("36", true);
    double lostBefore = joins("failed") + joins("dropped");

    redis.server().pause();
    try {
      for (int i = 0; i < 3; i++) {
        long started = System.nanoTime();
        HttpResponse<String> page = new Visitor(port).page("/products/36");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("Product page");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
      }
      // The joins time out (the command timeout is 500ms) or are refused by the breaker.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> joins("failed") + joins("dropped") >= lostBefore + 3);
    } finally {
      redis.server().resume();
    }
  }
}
