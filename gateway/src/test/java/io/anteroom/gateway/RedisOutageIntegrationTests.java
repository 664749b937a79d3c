package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
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
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * With Redis gone, pass holders and visitors of queues that are off keep passing; visitors of an
 * active queue get a prompt 503 with Retry-After, never a 500 or a hang; once Redis is back the
 * line works again without a restart.
 */
@GatewayIntegrationTest
@SystemTest
class RedisOutageIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueKeys keys;

  @Test
  void redisKilledThenBack() {
    QueueId hot = QueueId.of("shop", "1");
    active.activate(hot, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(hot));
    Visitor.lineUpSomeone(port, "/products/1");
    Visitor waiter = new Visitor(port);
    assertThat(Visitor.text(waiter.json("/products/1").body(), "state")).isEqualTo("waiting");
    Visitor holder = new Visitor(port);
    assertThat(holder.page("/products/2").body()).contains("Product page");

    redis.server().kill();

    HttpResponse<String> poll = waiter.json("/_anteroom/status?room=shop");
    assertThat(poll.statusCode()).isEqualTo(503);
    assertThat(poll.headers().firstValue("Retry-After")).hasValue("5");
    assertThat(Visitor.text(poll.body(), "state")).isEqualTo("unavailable");
    HttpResponse<String> browser = new Visitor(port).page("/products/1");
    assertThat(browser.statusCode()).isEqualTo(503);
    assertThat(browser.headers().firstValue("Retry-After")).hasValue("5");
    assertThat(browser.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    assertThat(browser.body()).contains("Temporarily unavailable");

    HttpResponse<String> newcomer = new Visitor(port).json("/products/1");
    assertThat(newcomer.statusCode()).isEqualTo(503);
    assertThat(newcomer.headers().firstValue("Retry-After")).isPresent();
    assertThat(newcomer.body()).contains("\"state\":\"unavailable\"");
    assertThat(new Visitor(port).json("/_anteroom/status?room=shop").statusCode()).isLessThan(500);
    assertThat(holder.page("/products/2").body()).as("pass holder").contains("Product page");
    assertThat(new Visitor(port).page("/products/3").body())
        .as("queue that is off")
        .contains("Product page");

    redis.server().restart();

    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(
            () ->
                assertThat(Visitor.text(new Visitor(port).json("/products/1").body(), "state"))
                    .isEqualTo("waiting"));
  }

  @Test
  void queueThatFailsOpenLetsNewcomersThroughMarkedWhileRedisIsDown() {
    QueueId queue = QueueId.of("shop", "4");
    settings.put("shop", "4", Map.of("failure-policy", "open")).block();
    active.activate(queue, Activation.MANUAL).block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                mirror.isActive(queue)
                    && policies.policy(queue).failurePolicy() == FailurePolicy.OPEN);
    Visitor.lineUpSomeone(port, "/products/4");
    Visitor waiter = new Visitor(port);
    assertThat(Visitor.text(waiter.json("/products/4").body(), "state")).isEqualTo("waiting");
    origin.resetRequests();

    redis.server().kill();
    try {
      HttpResponse<String> poll = waiter.json("/_anteroom/status?room=shop");
      assertThat(poll.statusCode()).as("the page loads its URL again").isEqualTo(404);
      assertThat(Visitor.text(poll.body(), "state")).isEqualTo("unknown");
      HttpResponse<String> newcomer = new Visitor(port).page("/products/4");

      assertThat(newcomer.statusCode()).isEqualTo(200);
      assertThat(newcomer.body()).contains("Product page");
      assertThat(newcomer.headers().allValues("Set-Cookie"))
          .noneMatch(c -> c.startsWith("anteroom_pass_"));
      origin.verify(
          getRequestedFor(urlPathEqualTo("/products/4"))
              .withHeader("Anteroom-Degraded", equalTo("line-unavailable")));
    } finally {
      redis.server().restart();
      await()
          .atMost(Duration.ofSeconds(15))
          .ignoreExceptions()
          .until(() -> active.list().block() != null);
    }
  }

  @Test
  void newcomerWhoseJoinRanAfterTheGatewayGaveUpKeepsThatOnePlaceOnRetry() {
    QueueId queue = QueueId.of("shop", "5");
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(queue));
    Visitor.lineUpSomeone(port, "/products/5");
    RedisClient client = RedisClient.create(redis.uri());
    try {
      RedisCommands<String, String> direct = client.connect().sync();
      long before = direct.zcard(keys.waiting(queue));

      // Redis holds every command for longer than the gateway's command timeout, then runs them:
      // the newcomer's join lands after the gateway has answered 503.
      direct.clientPause(2_000);
      Visitor newcomer = new Visitor(port);
      HttpResponse<String> first = newcomer.json("/products/5");

      assertThat(first.statusCode()).isEqualTo(503);
      assertThat(newcomer.cookie("anteroom_ticket_shop")).as("ticket with the 503").isNotNull();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> direct.zcard(keys.waiting(queue)) == before + 1);

      HttpResponse<String> retry = newcomer.json("/products/5");

      assertThat(Visitor.text(retry.body(), "state")).isEqualTo("waiting");
      assertThat(Visitor.field(retry.body(), "position")).isEqualTo(before + 1);
      assertThat(direct.zcard(keys.waiting(queue))).as("one place, not two").isEqualTo(before + 1);
    } finally {
      client.shutdown();
    }
  }
}
