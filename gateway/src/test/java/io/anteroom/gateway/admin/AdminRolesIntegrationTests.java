package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

/**
 * Named tokens with roles against a real Redis: a viewer reads and is refused every change, naming
 * the role needed; an operator changes everything but the failure policy; an admin does all. The
 * audit trail names the token, whatever the caller claims, and is readable through the API.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + AdminRolesIntegrationTests.ADMIN,
      "anteroom.admin.tokens.vera.role=viewer",
      // printf %s viewer-token-0123456789abcdef | sha256sum
      "anteroom.admin.tokens.vera.sha256="
          + "1ab54f182b9a50d530abaeb7b999bc51e2194931aef2cf21d6c799bae267ce6c",
      "anteroom.admin.tokens.olga.role=operator",
      // printf %s operator-token-0123456789abcdef | sha256sum
      "anteroom.admin.tokens.olga.sha256="
          + "68138dfaa2faa1f6d5f05658d162134a7aa1d84948a1c7d45cd73de45dce2e60"
    })
@ExtendWith(OutputCaptureExtension.class)
class AdminRolesIntegrationTests {

  static final String ADMIN = "admin-token-0123456789abcdef";
  static final String VIEWER = "viewer-token-0123456789abcdef";
  static final String OPERATOR = "operator-token-0123456789abcdef";

  static final String ROOM = "/admin/api/rooms/shop";
  static final String QUEUE = ROOM + "/queues/7";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired RoomPolicies policies;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;

  AdminClient as(String token) {
    return new AdminClient(managementPort, token);
  }

  /** Every call that changes something, with the role it needs. */
  List<Call> changes() {
    return List.of(
        new Call("operator", c -> c.patch(ROOM + "/settings", "{\"admit-per-second\": 5}")),
        new Call("operator", c -> c.patch(QUEUE + "/settings", "{\"mode\": \"paused\"}")),
        new Call("operator", c -> c.put(ROOM + "/message", "{\"message\": \"Soon\"}")),
        new Call("operator", c -> c.post(QUEUE + "/activate")),
        new Call("operator", c -> c.post(QUEUE + "/deactivate")),
        new Call("operator", c -> c.post(QUEUE + "/pause")),
        new Call("operator", c -> c.post(QUEUE + "/resume")),
        new Call("operator", c -> c.post(QUEUE + "/release", "{\"visitor\": \"x\"}")),
        new Call("admin", c -> c.put(ROOM + "/failure-policy", "{\"failure-policy\": \"open\"}")),
        new Call("admin", c -> c.patch(ROOM + "/settings", "{\"failure-policy\": \"open\"}")),
        new Call("admin", c -> c.patch(QUEUE + "/settings", "{\"failure-policy\": null}")));
  }

  record Call(String needs, Function<AdminClient, HttpResponse<String>> send) {}

  @Test
  void meNamesTheTokenAndItsRole() {
    assertThat(body(as(VIEWER).get("/admin/api/me")).toString())
        .isEqualTo("{\"name\":\"vera\",\"role\":\"viewer\"}");
    assertThat(body(as(OPERATOR).get("/admin/api/me")).get("name").stringValue()).isEqualTo("olga");
    assertThat(body(as(ADMIN).get("/admin/api/me")).toString())
        .isEqualTo("{\"name\":\"admin\",\"role\":\"admin\"}");
  }

  @Test
  void aViewerReadsEverythingAndIsRefusedEveryChangeNamingTheRoleNeeded() {
    AdminClient viewer = as(VIEWER);
    for (String path :
        List.of(
            "/admin/api/rooms",
            ROOM,
            ROOM + "/settings",
            ROOM + "/history",
            ROOM + "/autopilot",
            ROOM + "/failure-policy",
            ROOM + "/message",
            QUEUE,
            QUEUE + "/settings",
            "/admin/api/audit")) {
      assertThat(viewer.get(path).statusCode()).as(path).isEqualTo(200);
    }
    for (Call call : changes()) {
      HttpResponse<String> refused = call.send().apply(viewer);
      String path = refused.request().uri().getPath();
      // A settings PATCH is refused to a viewer before its body is read: it names the role every
      // PATCH needs; the failure policy's own call names admin.
      String required = path.endsWith("/failure-policy") ? "admin" : "operator";
      assertThat(refused.statusCode()).as(path).isEqualTo(403);
      JsonNode body = body(refused);
      assertThat(body.get("required").stringValue()).as(path).isEqualTo(required);
      assertThat(body.get("role").stringValue()).isEqualTo("viewer");
      assertThat(body.get("error").stringValue())
          .startsWith("forbidden")
          .contains("needs the " + required + " role");
    }
    assertThat(QueueFixtures.settingsHash(connector, keys, "shop")).isEmpty();
    assertThat(connector.commands().exists(keys.audit()).toCompletableFuture().join())
        .as("nothing was changed, so nothing audited")
        .isZero();
  }

  @Test
  void anOperatorChangesEverythingButTheFailurePolicy() {
    AdminClient operator = as(OPERATOR);
    List<String> answered = new ArrayList<>();
    for (Call call : changes()) {
      HttpResponse<String> response = call.send().apply(operator);
      if (call.needs().equals("admin")) {
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(body(response).get("required").stringValue()).isEqualTo("admin");
        assertThat(body(response).get("role").stringValue()).isEqualTo("operator");
      } else {
        answered.add(response.statusCode() + " " + response.request().uri().getPath());
      }
    }
    assertThat(answered)
        .as("allowed: 200, or 404 for the release of a visitor who is not there")
        .allSatisfy(line -> assertThat(line).doesNotStartWith("403").doesNotStartWith("401"));
    assertThat(QueueFixtures.settingsHash(connector, keys, "shop"))
        .containsEntry("admit-per-second", "5")
        .doesNotContainKey("failure-policy");
  }

  @Test
  void anAdminSwitchesTheFailurePolicy() {
    HttpResponse<String> put =
        as(ADMIN).put(ROOM + "/failure-policy", "{\"failure-policy\": \"open\"}");
    HttpResponse<String> patch =
        as(ADMIN).patch(ROOM + "/settings", "{\"failure-policy\": \"closed\"}");

    assertThat(put.statusCode()).isEqualTo(200);
    assertThat(patch.statusCode()).isEqualTo(200);
    assertThat(QueueFixtures.settingsHash(connector, keys, "shop"))
        .containsEntry("failure-policy", "closed");
  }

  @Test
  void theAuditNamesTheTokenEvenWhenTheCallerClaimsAnotherActor(CapturedOutput log) {
    AdminClient operator = as(OPERATOR);
    HttpResponse<String> changed =
        operator.send(
            AdminClient.json(
                    operator.request(ROOM + "/settings"), "PATCH", "{\"admit-per-second\": 9}")
                .header("X-Anteroom-Actor", "mallory"));

    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(log.getAll())
        .contains(
            "who=olga from=127.0.0.1 what=room-settings target=shop"
                + " old={admit-per-second=1} new={admit-per-second=9}")
        .doesNotContain("mallory");
    JsonNode entry = awaitAudit(as(VIEWER), 1).get(0);
    assertThat(entry.get("who").stringValue()).isEqualTo("olga");
    assertThat(entry.get("from").stringValue()).isEqualTo("127.0.0.1");
    assertThat(entry.get("what").stringValue()).isEqualTo("room-settings");
    assertThat(entry.get("target").stringValue()).isEqualTo("shop");
    assertThat(entry.get("old").stringValue()).isEqualTo("{admit-per-second=1}");
    assertThat(entry.get("new").stringValue()).isEqualTo("{admit-per-second=9}");
    assertThat(entry.get("at").stringValue()).endsWith("Z");
  }

  @Test
  void theAuditIsReadableNewestFirstAndCountBoundsIt() {
    List<String> visitors = QueueFixtures.lineUp(store, policies, QueueId.of("shop", "7"), 1);
    as(OPERATOR).post(QUEUE + "/activate");
    as(ADMIN).put(ROOM + "/message", "{\"message\": \"Doors open at 10\"}");
    as(OPERATOR).post(QUEUE + "/release", "{\"visitor\": \"" + visitors.get(0) + "\"}");

    List<JsonNode> entries = awaitAudit(as(VIEWER), 3);
    assertThat(entries)
        .extracting(e -> e.get("what").stringValue() + " by " + e.get("who").stringValue())
        .containsExactly("release by olga", "message by admin", "activate by olga");
    assertThat(body(as(VIEWER).get("/admin/api/audit?count=1")).get("entries")).hasSize(1);
    for (String bad : List.of("0", "1001", "x", "")) {
      HttpResponse<String> refused = as(VIEWER).get("/admin/api/audit?count=" + bad);
      assertThat(refused.statusCode()).as(bad).isEqualTo(400);
      assertThat(body(refused).get("error").stringValue()).contains("count");
    }
  }

  /** The audit's entries once it has {@code count}, newest first. */
  private static List<JsonNode> awaitAudit(AdminClient client, int count) {
    List<JsonNode> entries = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> {
              entries.clear();
              body(client.get("/admin/api/audit")).get("entries").forEach(entries::add);
              return entries.size() >= count;
            });
    return entries;
  }
}
