package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The admin API on the management port against a real Redis: reading and changing settings, the
 * queue actions, the listing with counts, and the audit line of each change.
 */
@GatewayIntegrationTest(properties = {"anteroom.admin.token=" + AdminApiIntegrationTests.TOKEN})
@ExtendWith(OutputCaptureExtension.class)
class AdminApiIntegrationTests {

  static final String TOKEN = "test-admin-token-0123456789abcdef";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicies policies;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;
  @Autowired RoomStore rooms;

  final QueueId queue = QueueId.of("shop", "7");

  AdminClient admin() {
    return new AdminClient(managementPort, TOKEN);
  }

  @Test
  void patchWhenValuesAreBadThenNamesEachFieldAndChangesNothing() {
    settings.put("shop", null, Map.of("admit-per-second", "4")).block();
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin()
            .patch(
                "/admin/api/rooms/shop/settings",
                """
                {"admit-per-second": -1, "mode": "sleep", "colour": "red", "max-active": true,
                 "session-duration": "5"}""");

    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode body = body(response);
    assertThat(body.get("error").stringValue()).isEqualTo("invalid settings");
    assertThat(fields(body))
        .containsExactlyInAnyOrder(
            "admit-per-second", "mode", "colour", "max-active", "session-duration");
    assertThat(body.toString()).contains("must be above 0", "was 'sleep'", "unknown property");
    assertThat(settingsHash()).isEqualTo(before);
  }

  @Test
  void patchWhenTheBodyIsNotASettingsObjectThenAnswers4xxAndChangesNothing() {
    List<String> bodies =
        List.of(
            "{",
            "",
            "[1, 2]",
            "\"admit-per-second\"",
            "{\"admit-per-second\": 2, \"admit-per-second\": 3}",
            "{\"admit-per-second\": {\"value\": 2}}",
            "{\"admit-per-second\": [2]}",
            "{\"admit-per-second\": 1e400}",
            "{\"max-active\": 99999999999999999999999999}");
    for (String json : bodies) {
      HttpResponse<String> response = admin().patch("/admin/api/rooms/shop/settings", json);
      assertThat(response.statusCode()).as(json).isEqualTo(400);
      assertThat(body(response).get("error").stringValue()).as(json).isNotBlank();
    }
    String huge = "{\"mode\": \"" + "x".repeat(JsonBodies.MAX_BYTES) + "\"}";
    assertThat(admin().patch("/admin/api/rooms/shop/settings", huge).statusCode()).isEqualTo(413);
    assertThat(settingsHash()).isEmpty();
  }

  @Test
  void patchRoomSettingsSetsOverridesNullRemovesThemAndEachChangeIsAudited(CapturedOutput log) {
    HttpResponse<String> response =
        admin()
            .send(
                AdminClient.json(
                        admin().request("/admin/api/rooms/shop/settings"),
                        "PATCH",
                        "{\"admit-per-second\": 80, \"mode\": \"queue-all\"}")
                    .header("X-Anteroom-Actor", "alice <ops>"));

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = body(response);
    assertThat(body.at("/effective/admit-per-second").stringValue()).isEqualTo("80");
    assertThat(body.at("/configured/admit-per-second").stringValue()).isEqualTo("1");
    assertThat(body.at("/overrides/mode").stringValue()).isEqualTo("queue-all");
    assertThat(settingsHash())
        .containsEntry("admit-per-second", "80")
        .containsEntry("mode", "queue-all");
    assertThat(log.getAll())
        .as("the actor is the token's name; the header is ignored")
        .contains(
            "who=admin from=127.0.0.1 what=room-settings target=shop"
                + " old={admit-per-second=1, mode=queue}"
                + " new={admit-per-second=80, mode=queue-all}")
        .doesNotContain("who=alice");

    HttpResponse<String> removed =
        admin().patch("/admin/api/rooms/shop/settings", "{\"mode\": null}");

    assertThat(removed.statusCode()).isEqualTo(200);
    assertThat(body(removed).at("/effective/mode").stringValue()).isEqualTo("queue");
    assertThat(settingsHash()).containsOnlyKeys("admit-per-second");
    assertThat(log.getAll())
        .contains(
            "who=admin from=127.0.0.1 what=room-settings target=shop"
                + " old={mode=queue-all} new={mode=queue}");
  }

  @Test
  void patchQueueSettingsOverridesTheRoomForThatQueueOnly() {
    HttpResponse<String> response =
        admin().patch("/admin/api/rooms/shop/queues/7/settings", "{\"admit-per-second\": \"7.5\"}");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(body(response).at("/effective/admit-per-second").stringValue()).isEqualTo("7.5");
    assertThat(body(response).at("/inherited/admit-per-second").stringValue()).isEqualTo("1");
    assertThat(settingsHash()).containsExactlyEntriesOf(Map.of("7/admit-per-second", "7.5"));

    HttpResponse<String> bad =
        admin().patch("/admin/api/rooms/shop/queues/7/settings", "{\"deactivate-below\": 60}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(fields(body(bad))).containsExactly("deactivate-below");
    assertThat(settingsHash()).containsExactlyEntriesOf(Map.of("7/admit-per-second", "7.5"));
  }

  @Test
  void patchRoomSetsRoomWideLimitsAndNoneRemovesThem() {
    HttpResponse<String> set =
        admin()
            .patch(
                "/admin/api/rooms/shop/settings",
                "{\"total-active-users\": 2000, \"new-users-per-minute\": 500}");

    assertThat(set.statusCode()).isEqualTo(200);
    JsonNode effective = body(set).get("effective");
    assertThat(effective.get("total-active-users").stringValue()).isEqualTo("2000");
    assertThat(effective.get("new-users-per-minute").stringValue()).isEqualTo("500");
    assertThat(effective.get("weight").stringValue()).isEqualTo("1");
    HttpResponse<String> removed =
        admin().patch("/admin/api/rooms/shop/settings", "{\"total-active-users\": \"none\"}");
    assertThat(body(removed).get("effective").get("total-active-users").stringValue())
        .isEqualTo("none");
  }

  @Test
  void patchRoomWhenARoomWideLimitIsZeroOrNegativeThenNamesEachFieldAndChangesNothing() {
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin()
            .patch(
                "/admin/api/rooms/shop/settings",
                "{\"total-active-users\": 0, \"new-users-per-minute\": -5, \"weight\": 0}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(fields(body(response)))
        .containsExactlyInAnyOrder("total-active-users", "new-users-per-minute", "weight");
    assertThat(settingsHash()).isEqualTo(before);
  }

  @Test
  void patchQueueWhenItSetsARoomWideLimitOrACapAboveTheRoomsThenRefusesIt() {
    settings.put("shop", null, Map.of("total-active-users", "50")).block();
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin()
            .patch(
                "/admin/api/rooms/shop/queues/7/settings",
                "{\"total-active-users\": 10, \"max-active\": 100, \"weight\": 2}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(fields(body(response)))
        .containsExactlyInAnyOrder("total-active-users", "max-active");
    assertThat(response.body()).contains("room-wide", "at most total-active-users (50)");
    assertThat(settingsHash()).isEqualTo(before);
  }

  @Test
  void patchRoomWhenItsLimitWouldFallBelowAQueuesCapThenRefusesIt() {
    settings.put("shop", "7", Map.of("max-active", "100")).block();
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin().patch("/admin/api/rooms/shop/settings", "{\"total-active-users\": 50}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(fields(body(response))).containsExactly("max-active");
    assertThat(response.body()).contains("queue 7");
    assertThat(settingsHash()).isEqualTo(before);
  }

  @Test
  void patchSessionScopeWhenUnknownOrSetOnAQueueOrAQueueSessionOutlastsTheRoomsThenRefusesIt() {
    settings.put("shop", "7", Map.of("session-duration", "2m")).block();
    Map<String, String> before = settingsHash();

    HttpResponse<String> unknown =
        admin().patch("/admin/api/rooms/shop/settings", "{\"session-scope\": \"page\"}");
    HttpResponse<String> onAQueue =
        admin()
            .patch(
                "/admin/api/rooms/shop/queues/7/settings",
                "{\"session-scope\": \"room\", \"session-duration\": \"30m\"}");
    HttpResponse<String> roomShorter =
        admin().patch("/admin/api/rooms/shop/settings", "{\"session-duration\": \"1m\"}");

    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(fields(body(unknown))).containsExactly("session-scope");
    assertThat(unknown.body()).contains("item, room");
    assertThat(onAQueue.statusCode()).isEqualTo(400);
    assertThat(fields(body(onAQueue)))
        .containsExactlyInAnyOrder("session-scope", "session-duration");
    assertThat(roomShorter.statusCode()).isEqualTo(400);
    assertThat(fields(body(roomShorter))).containsExactly("session-duration");
    assertThat(roomShorter.body()).contains("queue 7");
    assertThat(settingsHash()).isEqualTo(before);
    assertThat(
            admin()
                .patch("/admin/api/rooms/shop/settings", "{\"session-scope\": \"room\"}")
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void patchQueueWeightOnAnItemTheRoomNeverQueuesIsRefused() {
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin().patch("/admin/api/rooms/shop/queues/abc/settings", "{\"weight\": 2}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(fields(body(response))).containsExactly("weight");
    assertThat(response.body()).contains("'abc' is not an item id of room shop");
    assertThat(settingsHash()).isEqualTo(before);
    assertThat(
            admin()
                .patch("/admin/api/rooms/shop/queues/1001/settings", "{\"weight\": 2}")
                .statusCode())
        .isEqualTo(200);
    assertThat(admin().patch("/admin/api/rooms/shop/queues/01/settings", "{\"weight\": 2}").body())
        .contains("'01' is not an item id of room shop: it is spelled '1'");
  }

  @Test
  void patchRoomWhenItWouldBreakAQueuesOverridesThenRefusesIt() {
    settings.put("shop", null, Map.of("activate-above", "10")).block();
    settings.put("shop", "7", Map.of("deactivate-below", "8")).block();
    Map<String, String> before = settingsHash();

    HttpResponse<String> response =
        admin().patch("/admin/api/rooms/shop/settings", "{\"activate-above\": 5}");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(fields(body(response))).containsExactly("deactivate-below");
    assertThat(response.body()).contains("queue 7");
    assertThat(settingsHash()).isEqualTo(before);
  }

  @Test
  void listingShowsAQueueActivatedThroughTheApiWithItsCountsAndDeactivateRemovesIt(
      CapturedOutput log) {
    lineUp(queue, 3);

    HttpResponse<String> activated = admin().post("/admin/api/rooms/shop/queues/7/activate");

    assertThat(activated.statusCode()).isEqualTo(200);
    assertThat(body(activated).get("active").stringValue()).isEqualTo("manual");
    assertThat(active.list().block()).containsEntry(queue, Activation.MANUAL);
    JsonNode listed = listedQueue("7");
    assertThat(listed.get("queue").stringValue()).isEqualTo("shop:7");
    assertThat(listed.get("state").stringValue()).isEqualTo("queueing");
    assertThat(listed.get("waiting").longValue()).isEqualTo(3);
    assertThat(listed.get("running").longValue()).isZero();
    assertThat(listed.get("finished").longValue()).isZero();
    assertThat(log.getAll()).contains("what=activate target=shop:7 old=off new=manual");

    HttpResponse<String> deactivated = admin().post("/admin/api/rooms/shop/queues/7/deactivate");

    assertThat(deactivated.statusCode()).isEqualTo(200);
    assertThat(body(deactivated).get("active").isNull()).isTrue();
    assertThat(active.list().block()).doesNotContainKey(queue);
    assertThat(listedQueue("7")).isNull();
    assertThat(log.getAll()).contains("what=deactivate target=shop:7 old=manual new=off");
  }

  @Test
  void queueShowsTheAdmissionRateMeasuredInRedis() {
    lineUp(queue, 3);
    active.activate(queue, Activation.MANUAL).block();
    assertThat(listedQueue("7").get("measured-admit-per-second").stringValue())
        .as("nothing sampled yet")
        .isEqualTo("0");

    // 30 admissions over 10 s of sampled time, as rate.lua keeps them.
    Mono.fromCompletionStage(
            connector
                .commands()
                .hset(
                    keys.state(queue),
                    Map.of(
                        "rate-sum",
                        "30",
                        "rate-weight",
                        "10000",
                        "rate-at",
                        Long.toString(System.currentTimeMillis()))))
        .block();

    assertThat(listedQueue("7").get("measured-admit-per-second").stringValue()).isEqualTo("3");
    assertThat(store.measuredRate(queue).block()).isEqualTo(3.0);
  }

  @Test
  void roomShowsItsTotalsAgainstItsRoomWideLimits() {
    JsonNode unlimited = roomTotals();
    assertThat(unlimited.get("total-active-users").stringValue()).isEqualTo("none");
    assertThat(unlimited.get("new-users-per-minute").stringValue()).isEqualTo("none");
    assertThat(unlimited.get("active-users").longValue()).isZero();
    assertThat(unlimited.get("measured-new-users-per-minute").stringValue()).isEqualTo("0");
    assertThat(unlimited.get("waiting").longValue()).isZero();
    assertThat(unlimited.get("full").booleanValue()).isFalse();

    assertThat(
            admin()
                .patch(
                    "/admin/api/rooms/shop/settings",
                    "{\"total-active-users\": 5, \"new-users-per-minute\": 600}")
                .statusCode())
        .isEqualTo(200);
    RoomPolicy limited =
        PolicyParser.apply(
            "test",
            policies.configured("shop"),
            Map.of("total-active-users", "5", "new-users-per-minute", "600"));
    // Five passes given while item 3's queue is off fill the room; the worker's check marks it.
    store.register(QueueId.of("shop", "3"), List.of("p1", "p2", "p3", "p4", "p5"), limited).block();
    rooms.check("shop", limited).block();
    lineUp(queue, 4);
    active.activate(queue, Activation.MANUAL).block();
    lineUp(QueueId.of("shop", "8"), 2);

    JsonNode totals = roomTotals();
    assertThat(totals.get("total-active-users").stringValue()).isEqualTo("5");
    assertThat(totals.get("new-users-per-minute").stringValue()).isEqualTo("600");
    assertThat(totals.get("active-users").longValue()).isEqualTo(5);
    assertThat(totals.get("waiting").longValue())
        .as("the lines of queues that are on")
        .isEqualTo(4);
    assertThat(totals.get("full").booleanValue()).isTrue();
    // Five sessions started at once: known once a second has passed, at most five a second.
    await().atMost(Duration.ofSeconds(5)).until(() -> measuredNewUsers(roomTotals()) > 0);
    assertThat(measuredNewUsers(roomTotals())).isLessThanOrEqualTo(300);
    JsonNode listed = listedRoom("shop").get("totals");
    assertThat(listed.get("active-users").longValue()).isEqualTo(5);
    assertThat(listed.get("waiting").longValue()).isEqualTo(4);
  }

  @Test
  void pauseAndResumeSetAndRemoveTheQueuesModeOverride(CapturedOutput log) {
    HttpResponse<String> paused = admin().post("/admin/api/rooms/shop/queues/7/pause");

    assertThat(paused.statusCode()).isEqualTo(200);
    assertThat(body(paused).get("mode").stringValue()).isEqualTo("paused");
    assertThat(settingsHash()).containsExactlyEntriesOf(Map.of("7/mode", "paused"));
    assertThat(listedQueue("7").get("state").stringValue())
        .as("listed because it has an override")
        .isEqualTo("paused");
    assertThat(log.getAll()).contains("what=pause target=shop:7 old=mode=queue new=mode=paused");

    assertThat(admin().post("/admin/api/rooms/shop/queues/7/resume").statusCode()).isEqualTo(200);
    assertThat(settingsHash()).isEmpty();
    assertThat(log.getAll()).contains("what=resume target=shop:7 old=mode=paused new=mode=queue");

    // With the whole room paused, resuming one queue sets its own mode so that it admits.
    settings.put("shop", null, Map.of("mode", "paused")).block();
    HttpResponse<String> resumed = admin().post("/admin/api/rooms/shop/queues/7/resume");
    assertThat(body(resumed).get("mode").stringValue()).isEqualTo("queue");
    assertThat(settingsHash()).containsEntry("7/mode", "queue");
  }

  @Test
  void releaseTakesAVisitorOutOfTheLine(CapturedOutput log) {
    List<String> visitors = lineUp(queue, 2);

    HttpResponse<String> released =
        admin()
            .post(
                "/admin/api/rooms/shop/queues/7/release",
                "{\"visitor\": \"" + visitors.get(0) + "\"}");

    assertThat(released.statusCode()).isEqualTo(200);
    assertThat(store.counts(queue).block().waiting()).isEqualTo(1);
    assertThat(log.getAll())
        .contains("what=release target=shop:7 old=visitor " + visitors.get(0) + " new=released");
    assertThat(
            admin()
                .post(
                    "/admin/api/rooms/shop/queues/7/release",
                    "{\"visitor\": \"" + visitors.get(0) + "\"}")
                .statusCode())
        .as("no longer there")
        .isEqualTo(404);
    for (String bad : List.of("{\"visitor\": \"x\"}", "{\"visitor\": 5}", "{}", "[]")) {
      HttpResponse<String> refused = admin().post("/admin/api/rooms/shop/queues/7/release", bad);
      assertThat(refused.statusCode()).as(bad).isEqualTo(400);
    }
    assertThat(store.counts(queue).block().waiting()).isEqualTo(1);
  }

  @Test
  void unknownRoomsAnswer404JsonAndOddItemIdsAreRefused() {
    for (String path :
        List.of(
            "/admin/api/rooms/nope", "/admin/api/rooms/nope/settings", "/admin/api/rooms/NO%21")) {
      HttpResponse<String> response = admin().get(path);
      assertThat(response.statusCode()).as(path).isEqualTo(404);
      assertThat(body(response).get("error").stringValue()).isEqualTo("unknown room");
    }
    assertThat(admin().post("/admin/api/rooms/nope/queues/1/activate").statusCode()).isEqualTo(404);
    assertThat(admin().get("/admin/api/rooms/shop/queues/1/nothing").statusCode()).isEqualTo(404);

    String odd = URLEncoder.encode("a b/ç?<script>", StandardCharsets.UTF_8).replace("+", "%20");
    for (String item : List.of(odd, "abc", "1.json", "0x1")) {
      HttpResponse<String> refused =
          admin().post("/admin/api/rooms/shop/queues/" + item + "/activate");
      assertThat(refused.statusCode()).as(item).isEqualTo(400);
      assertThat(body(refused).get("error").stringValue())
          .as(item)
          .contains("is not an item id of room shop");
    }
    assertThat(active.list().block()).as("no queue nobody could reach turned on").isEmpty();
    assertThat(admin().get("/admin/api/rooms/shop/queues/" + "x".repeat(1100)).statusCode())
        .isEqualTo(400);
  }

  @Test
  void anActionOnAnItemIdSpelledAnotherWayActsOnTheQueueItsVisitorsReach() {
    for (String spelling : List.of("07", "+7", "007")) {
      HttpResponse<String> activated =
          admin().post("/admin/api/rooms/shop/queues/" + spelling + "/activate");
      assertThat(activated.statusCode()).as(spelling).isEqualTo(200);
      assertThat(body(activated).get("item").stringValue()).as(spelling).isEqualTo("7");
    }
    assertThat(active.list().block()).containsOnlyKeys(queue);
    assertThat(admin().post("/admin/api/rooms/shop/queues/07/pause").statusCode()).isEqualTo(200);
    assertThat(settingsHash()).containsExactlyEntriesOf(Map.of("7/mode", "paused"));
    assertThat(admin().get("/admin/api/rooms/shop/queues/007").body()).contains("\"item\":\"7\"");
  }

  @Test
  void aRoomWideModeReachesEveryQueueThoughOneWasPausedOrResumedOnItsOwn(CapturedOutput log) {
    settings.put("shop", null, Map.of("mode", "paused")).block();
    assertThat(admin().post("/admin/api/rooms/shop/queues/7/resume").statusCode()).isEqualTo(200);
    assertThat(admin().post("/admin/api/rooms/shop/queues/8/pause").statusCode()).isEqualTo(200);
    settings.put("shop", "8", Map.of("weight", "2")).block();

    HttpResponse<String> closed =
        admin().patch("/admin/api/rooms/shop/settings", "{\"mode\": \"closed\"}");

    assertThat(closed.statusCode()).isEqualTo(200);
    assertThat(settingsHash())
        .as("the queues' own modes are gone, their other settings kept")
        .containsExactlyInAnyOrderEntriesOf(Map.of("mode", "closed", "8/weight", "2"));
    assertThat(policies.current("shop").block().forItem("7").mode().value()).isEqualTo("closed");
    assertThat(policies.current("shop").block().forItem("8").mode().value()).isEqualTo("closed");
    assertThat(log.getAll())
        .contains("what=queue-settings target=shop:7 old=mode=queue new=mode=closed")
        .contains("what=queue-settings target=shop:8 old=mode=paused new=mode=closed");
  }

  @Test
  void whenRedisDoesNotAnswerThenCallsGet503AndNothingHangs() {
    redis.server().pause();
    try {
      for (HttpResponse<String> response :
          List.of(
              admin().get("/admin/api/rooms"),
              admin().patch("/admin/api/rooms/shop/settings", "{\"admit-per-second\": 2}"),
              admin().post("/admin/api/rooms/shop/queues/7/activate"))) {
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(body(response).get("error").stringValue()).contains("Redis");
      }
    } finally {
      redis.server().resume();
    }
  }

  /** Visitors put in line directly, none admitted (a paused policy admits nobody at once). */
  private List<String> lineUp(QueueId queue, int count) {
    return QueueFixtures.lineUp(store, policies, queue, count);
  }

  private JsonNode roomTotals() {
    HttpResponse<String> response = admin().get("/admin/api/rooms/shop");
    assertThat(response.statusCode()).isEqualTo(200);
    return body(response).get("totals");
  }

  private static double measuredNewUsers(JsonNode totals) {
    return Double.parseDouble(totals.get("measured-new-users-per-minute").stringValue());
  }

  private JsonNode listedRoom(String name) {
    for (JsonNode room : body(admin().get("/admin/api/rooms")).get("rooms")) {
      if (room.get("room").stringValue().equals(name)) {
        return room;
      }
    }
    return null;
  }

  /** The listed queue of room shop with {@code item}, or null when it is not listed. */
  private JsonNode listedQueue(String item) {
    HttpResponse<String> response = admin().get("/admin/api/rooms");
    assertThat(response.statusCode()).isEqualTo(200);
    for (JsonNode room : body(response).get("rooms")) {
      if (room.get("room").stringValue().equals("shop")) {
        for (JsonNode listed : room.get("queues")) {
          if (listed.get("item").stringValue().equals(item)) {
            return listed;
          }
        }
      }
    }
    return null;
  }

  private static List<String> fields(JsonNode body) {
    List<String> fields = new ArrayList<>();
    body.get("problems").forEach(problem -> fields.add(problem.get("field").stringValue()));
    return fields;
  }

  private Map<String, String> settingsHash() {
    return QueueFixtures.settingsHash(connector, keys, "shop");
  }
}
