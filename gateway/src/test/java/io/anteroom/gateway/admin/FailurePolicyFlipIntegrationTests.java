package io.anteroom.gateway.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * {@code PUT /admin/api/rooms/{room}/failure-policy} on one of two gateways: with Redis up every
 * gateway follows; with Redis killed the flip holds on that gateway at once (the other keeps its
 * value), and once Redis is back the flipping gateway stores it and the other follows.
 */
@GatewayIntegrationTest(
    properties = {"anteroom.admin.token=" + FailurePolicyFlipIntegrationTests.TOKEN})
@ExtendWith(OutputCaptureExtension.class)
@SystemTest
class FailurePolicyFlipIntegrationTests {

  static final String TOKEN = "test-admin-token-0123456789abcdef";
  static final String PATH = "/admin/api/rooms/shop/failure-policy";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror activeMirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;

  AdminClient admin() {
    return new AdminClient(managementPort, TOKEN);
  }

  @Test
  void flipWhileRedisIsDownHoldsHereAtOnceAndReachesTheOtherGatewayWhenRedisReturns(
      CapturedOutput log) {
    QueueId queue = QueueId.of("shop", "5");
    active.activate(queue, Activation.MANUAL).block();
    try (GatewayApp other = new GatewayApp(redis.uri(), origin)) {
      RoomPolicyMirror otherPolicies = other.bean(RoomPolicyMirror.class);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  activeMirror.isActive(queue)
                      && other.bean(ActiveQueueMirror.class).isActive(queue));
      Visitor.lineUpSomeone(port, "/products/5");

      HttpResponse<String> stored = admin().put(PATH, "{\"failure-policy\": \"open\"}");

      assertThat(stored.statusCode()).isEqualTo(200);
      assertThat(body(stored).get("stored").stringValue()).isEqualTo("redis");
      assertThat(body(stored).get("failure-policy").stringValue()).isEqualTo("open");
      assertThat(QueueFixtures.settingsHash(connector, keys, "shop"))
          .containsEntry("failure-policy", "open");
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> otherPolicies.policy("shop").failurePolicy() == FailurePolicy.OPEN);
      assertThat(log.getAll())
          .contains(
              "what=failure-policy target=shop old={failure-policy=closed}"
                  + " new={failure-policy=open, stored=redis}");

      redis.server().kill();
      try {
        HttpResponse<String> local = admin().put(PATH, "{\"failure-policy\": \"closed\"}");

        assertThat(local.statusCode()).isEqualTo(200);
        JsonNode answer = body(local);
        assertThat(answer.get("stored").stringValue()).isEqualTo("local");
        assertThat(answer.get("failure-policy").stringValue()).isEqualTo("closed");
        assertThat(answer.get("local").stringValue()).isEqualTo("closed");
        assertThat(log.getAll())
            .contains(
                "what=failure-policy target=shop old={failure-policy=open}"
                    + " new={failure-policy=closed, stored=local}");
        origin.resetRequests();
        HttpResponse<String> here = new Visitor(port).json("/products/5");
        assertThat(here.statusCode()).as("this gateway fails closed at once").isEqualTo(503);
        assertThat(here.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/5")))).isEmpty();
        HttpResponse<String> there = new Visitor(other.port()).page("/products/5");
        assertThat(there.statusCode()).as("the other gateway still fails open").isEqualTo(200);
        origin.verify(
            1,
            getRequestedFor(urlPathEqualTo("/products/5"))
                .withHeader("Anteroom-Degraded", equalTo("line-unavailable")));
      } finally {
        redis.server().restart();
      }

      await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(
              () ->
                  assertThat(otherPolicies.policy("shop").failurePolicy())
                      .as("the other gateway follows once this one stored it")
                      .isEqualTo(FailurePolicy.CLOSED));
      assertThat(QueueFixtures.settingsHash(connector, keys, "shop"))
          .containsEntry("failure-policy", "closed");
      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() -> assertThat(body(admin().get(PATH)).get("local").isNull()).isTrue());
      assertThat(body(admin().get(PATH)).get("failure-policy").stringValue()).isEqualTo("closed");
    }
  }

  @Test
  void badFlipsAreRefusedAndChangeNothing() {
    List<String> bodies =
        List.of(
            "{\"failure-policy\": \"ajar\"}",
            "{}",
            "{\"failure-policy\": 1}",
            "{\"failure-policy\": \"open\", \"mode\": \"closed\"}");
    for (String json : bodies) {
      HttpResponse<String> response = admin().put(PATH, json);
      assertThat(response.statusCode()).as(json).isEqualTo(400);
      assertThat(body(response).get("problems").isArray()).as(json).isTrue();
    }
    assertThat(admin().put(PATH, "{").statusCode()).isEqualTo(400);
    assertThat(
            admin()
                .put("/admin/api/rooms/nope/failure-policy", "{\"failure-policy\": \"open\"}")
                .statusCode())
        .isEqualTo(404);
    assertThat(
            new AdminClient(managementPort, null)
                .put(PATH, "{\"failure-policy\": \"open\"}")
                .statusCode())
        .isEqualTo(401);
    assertThat(policies.local("shop")).isEmpty();
    assertThat(body(admin().get(PATH)).get("failure-policy").stringValue()).isEqualTo("closed");
  }
}
