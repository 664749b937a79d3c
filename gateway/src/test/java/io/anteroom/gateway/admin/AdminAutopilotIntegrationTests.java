package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

/**
 * The auto-pilot in the admin API against a real Redis, its state written as a worker writes it:
 * the share, the rate it gives and why, its last changes, what is shown while it is off or has not
 * decided lately, and turning it on through the room's settings.
 */
@GatewayIntegrationTest(
    properties = {"anteroom.admin.token=" + AdminAutopilotIntegrationTests.TOKEN})
class AdminAutopilotIntegrationTests {

  static final String TOKEN = "autopilot-test-token-0123456789abcdef";
  static final String PATH = "/admin/api/rooms/shop/autopilot";
  static final String SLOW = "origin p95 1.2 s above the 800 ms target";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired Clock clock;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;
  RedisPilot pilot;

  /**
   * Decisions are written at the times they name, as workers deciding then would have: on a clock
   * moved by hand, which the scripts take as it is (a decision two minutes old, written now, would
   * otherwise be taken as ten seconds old at most).
   */
  @BeforeEach
  void pilotOnTheDecisionsTimes() {
    pilot = new RedisPilot(connector.commands(), keys, new MutableClock(clock.instant()));
  }

  AdminClient admin() {
    return new AdminClient(managementPort, TOKEN);
  }

  @Test
  void whenOnThenShowsTheShareTheRateItGivesWhyAndTheChangesNewestFirst() {
    setRoom("{\"autopilot\": \"on\", \"admit-per-second\": 50}");
    long now = clock.millis();
    PilotState first = decide(PilotState.START, now - 9000, 0.8, "origin errors 9 % above 5 %");
    decide(first, now - 1000, 0.7, SLOW);

    HttpResponse<String> response = admin().get(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = body(response);
    assertThat(body.get("on").booleanValue()).isTrue();
    assertThat(body.get("share").doubleValue()).isEqualTo(0.7);
    assertThat(body.get("ceiling").intValue()).isEqualTo(50);
    assertThat(body.get("rate").intValue()).isEqualTo(35);
    assertThat(body.get("per").stringValue()).isEqualTo("queue");
    assertThat(body.get("reason").stringValue()).isEqualTo(SLOW);
    assertThat(body.get("decidedAt").stringValue())
        .isEqualTo(Instant.ofEpochMilli(now - 1000).toString());
    assertThat(body.get("summary").stringValue()).isEqualTo("holding at 35/s: " + SLOW);
    assertThat(body.at("/settings/autopilot-p95").stringValue()).isEqualTo("800ms");
    assertThat(body.at("/settings/autopilot-errors").stringValue()).isEqualTo("0.05");
    assertThat(body.at("/settings/autopilot-floor").stringValue()).isEqualTo("1");
    JsonNode changes = body.get("changes");
    assertThat(list(changes, "rate")).containsExactly("35", "40");
    assertThat(list(changes, "share")).containsExactly("0.7", "0.8");
    assertThat(list(changes, "reason")).containsExactly(SLOW, "origin errors 9 % above 5 %");
    assertThat(changes.get(1).get("at").stringValue())
        .isEqualTo(Instant.ofEpochMilli(now - 9000).toString());

    JsonNode listed = body(admin().get("/admin/api/rooms/shop")).get("autopilot");
    assertThat(listed.get("summary").stringValue()).isEqualTo("holding at 35/s: " + SLOW);
    assertThat(listed.get("rate").intValue()).isEqualTo(35);
    assertThat(body(admin().get("/admin/api/rooms")).at("/rooms/0/autopilot/on").booleanValue())
        .isTrue();
  }

  @Test
  void whenTheRoomHasANewUsersRateThenTheShareAppliesToItAndNeverGoesBelowTheFloor() {
    setRoom("{\"autopilot\": \"on\", \"new-users-per-minute\": 600, \"autopilot-floor\": 2}");
    decide(PilotState.START, clock.millis(), 0.1, SLOW);

    JsonNode body = body(admin().get(PATH));

    assertThat(body.get("per").stringValue()).isEqualTo("room");
    assertThat(body.get("ceiling").intValue()).isEqualTo(10);
    assertThat(body.get("rate").intValue()).as("the floor, not 10 × 0.1").isEqualTo(2);
    assertThat(body.get("summary").stringValue()).isEqualTo("holding at 2/s: " + SLOW);
  }

  @Test
  void whenOffThenAdmitsAtTheConfiguredRateAndStillListsThePastChanges() {
    decide(PilotState.START, clock.millis(), 0.5, SLOW);

    JsonNode body = body(admin().get(PATH));

    assertThat(body.get("on").booleanValue()).isFalse();
    assertThat(body.get("share").intValue()).isEqualTo(1);
    assertThat(body.get("ceiling").intValue()).as("config/anteroom.yml").isEqualTo(1);
    assertThat(body.get("rate").intValue()).isEqualTo(1);
    assertThat(body.get("summary").stringValue()).isEqualTo("off: admitting at the configured 1/s");
    assertThat(body.get("reason").isNull()).isTrue();
    assertThat(body.get("decidedAt").isNull()).isTrue();
    assertThat(body.get("changes")).hasSize(1);
  }

  @Test
  void whenTheLastDecisionIsOlderThanAMinuteThenItCountsAsNone() {
    setRoom("{\"autopilot\": \"on\", \"admit-per-second\": 50}");
    decide(PilotState.START, clock.millis() - Duration.ofMinutes(2).toMillis(), 0.5, SLOW);

    JsonNode body = body(admin().get(PATH));

    assertThat(body.get("on").booleanValue()).isTrue();
    assertThat(body.get("share").intValue()).isEqualTo(1);
    assertThat(body.get("rate").intValue()).isEqualTo(50);
    assertThat(body.get("decidedAt").isNull()).isTrue();
    assertThat(body.get("summary").stringValue())
        .isEqualTo("not decided yet: admitting at the configured 50/s until a worker decides");
  }

  @Test
  void whenAtTheConfiguredRateThenTheSummarySaysWhatTheOriginShows() {
    setRoom("{\"autopilot\": \"on\"}");
    decide(
        PilotState.START,
        clock.millis(),
        1,
        "at the configured rate: origin p95 120 ms, errors 0 %");

    assertThat(body(admin().get(PATH)).get("summary").stringValue())
        .isEqualTo("admitting at the configured 1/s: origin p95 120 ms, errors 0 %");
  }

  @Test
  void theAutopilotIsSetOnTheRoomNotOnAQueue() {
    HttpResponse<String> queue =
        admin().patch("/admin/api/rooms/shop/queues/7/settings", "{\"autopilot\": \"on\"}");

    assertThat(queue.statusCode()).isEqualTo(400);
    assertThat(queue.body()).contains("is room-wide; set it on the room");
    assertThat(QueueFixtures.settingsHash(connector, keys, "shop")).isEmpty();

    setRoom("{\"autopilot\": \"on\"}");
    assertThat(QueueFixtures.settingsHash(connector, keys, "shop"))
        .containsEntry("autopilot", "on");
    assertThat(body(admin().get(PATH)).get("on").booleanValue()).isTrue();
    setRoom("{\"autopilot\": \"off\"}");
    assertThat(body(admin().get(PATH)).get("summary").stringValue()).startsWith("off: ");
  }

  @Test
  void unknownRoomsAndCallersWithoutTheTokenAreRefused() {
    HttpResponse<String> unknown = admin().get("/admin/api/rooms/nope/autopilot");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(body(unknown).get("error").stringValue()).isEqualTo("unknown room");

    HttpResponse<String> anonymous = new AdminClient(managementPort, null).get(PATH);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).doesNotContain("share");
    HttpResponse<String> wrong =
        new AdminClient(managementPort, "wrong-token-0123456789").get(PATH);
    assertThat(wrong.statusCode()).isEqualTo(401);
  }

  @Test
  void whenRedisDoesNotAnswerThen503() {
    redis.server().pause();
    try {
      HttpResponse<String> response = admin().get(PATH);

      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(body(response).get("error").stringValue()).contains("Redis");
    } finally {
      redis.server().resume();
    }
  }

  private void setRoom(String settings) {
    HttpResponse<String> response = admin().patch("/admin/api/rooms/shop/settings", settings);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  /** Moves the shop's pilot from {@code read} as a worker would; returns the new state. */
  private PilotState decide(PilotState read, long at, double share, String reason) {
    PilotState next = read.next(at, share, reason);
    assertThat(pilot.step("shop", read, next).block()).isTrue();
    return next;
  }

  private static List<String> list(JsonNode items, String field) {
    List<String> values = new ArrayList<>();
    for (JsonNode item : items) {
      JsonNode value = item.get(field);
      values.add(value.isString() ? value.stringValue() : value.toString());
    }
    return values;
  }
}
