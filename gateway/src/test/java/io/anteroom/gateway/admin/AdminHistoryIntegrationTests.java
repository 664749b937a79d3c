package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /admin/api/rooms/{room}/history} against a real Redis, with samples written as the
 * admission workers write them ({@link RedisRoomHistory#record}) under a clock moved by hand. The
 * gateway reads with the real clock, so the samples are placed within the last 15 minutes.
 */
@GatewayIntegrationTest(properties = {"anteroom.admin.token=" + AdminHistoryIntegrationTests.TOKEN})
class AdminHistoryIntegrationTests {

  static final String TOKEN = "history-admin-token-0123456789abcdef";
  static final String PATH = "/admin/api/rooms/shop/history";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;
  @Autowired SettingsStore settings;

  /** Ten minutes ago, at the start of an interval. */
  Instant start;

  MutableClock clock;
  RoomHistory writer;

  @BeforeEach
  void writer() {
    long interval = RoomHistory.INTERVAL.toMillis();
    long tenMinutesAgo = Instant.now().minus(Duration.ofMinutes(10)).toEpochMilli();
    start = Instant.ofEpochMilli(tenMinutesAgo - tenMinutesAgo % interval);
    clock = new MutableClock(start);
    writer = new RedisRoomHistory(connector.commands(), keys, clock);
  }

  AdminClient admin() {
    return new AdminClient(managementPort, TOKEN);
  }

  @Test
  void historyListsSamplesOldestFirstWithTheAdmissionRateBetweenThem() {
    record(Duration.ofMinutes(-6), 1, 0, 0, 1); // older than 15 minutes by the time it is read
    record(Duration.ZERO, 40, 10, 5, 100);
    record(Duration.ofSeconds(5), 42, 12, 6, 110);
    record(Duration.ofSeconds(10), 45, 11, 9, 117);
    // No worker ran for a minute: 30 admitted over 60 s.
    record(Duration.ofSeconds(70), 50, 14, 20, 147);
    // A queue was turned off, its admissions leave the total.
    record(Duration.ofSeconds(75), 8, 3, 2, 20);
    record(Duration.ofSeconds(80), 7, 4, 3, 25);

    HttpResponse<String> response = admin().get(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode body = body(response);
    assertThat(body.get("room").stringValue()).isEqualTo("shop");
    assertThat(body.get("interval").stringValue()).isEqualTo("5s");
    assertThat(body.get("span").stringValue()).isEqualTo("15m");
    assertThat(body.get("admitPerSecond").doubleValue()).as("config/anteroom.yml").isEqualTo(1.0);
    JsonNode samples = body.get("samples");
    assertThat(list(samples, "at"))
        .containsExactly(
            at(Duration.ZERO),
            at(Duration.ofSeconds(5)),
            at(Duration.ofSeconds(10)),
            at(Duration.ofSeconds(70)),
            at(Duration.ofSeconds(75)),
            at(Duration.ofSeconds(80)));
    assertThat(list(samples, "waiting")).containsExactly("40", "42", "45", "50", "8", "7");
    assertThat(list(samples, "running")).containsExactly("10", "12", "11", "14", "3", "4");
    assertThat(list(samples, "finished")).containsExactly("5", "6", "9", "20", "2", "3");
    assertThat(samples.get(0).get("admittedPerSecond").isNull()).as("nothing before").isTrue();
    assertThat(list(samples, "admittedPerSecond"))
        .containsExactly("null", "2.0", "1.4", "0.5", "0.0", "1.0");
  }

  @Test
  void historyShowsTheRateTheRoomIsSetToNowAndNoSamplesBeforeAnyWorkerWrote() {
    settings.put("shop", null, Map.of("admit-per-second", "2.5")).block();

    HttpResponse<String> response = admin().get(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = body(response);
    assertThat(body.get("admitPerSecond").doubleValue()).isEqualTo(2.5);
    assertThat(body.get("samples").isArray()).isTrue();
    assertThat(body.get("samples").isEmpty()).isTrue();
  }

  @Test
  void historyOfAnUnknownRoomIs404AndWithoutTheTokenIs401() {
    HttpResponse<String> unknown = admin().get("/admin/api/rooms/nope/history");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(body(unknown).get("error").stringValue()).isEqualTo("unknown room");

    HttpResponse<String> anonymous = new AdminClient(managementPort, null).get(PATH);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).doesNotContain("samples");
    HttpResponse<String> wrong =
        new AdminClient(managementPort, "wrong-token-0123456789").get(PATH);
    assertThat(wrong.statusCode()).isEqualTo(401);
  }

  @Test
  void historyWhenRedisDoesNotAnswerThen503() {
    record(Duration.ZERO, 1, 2, 3, 4);
    redis.server().pause();
    try {
      HttpResponse<String> response = admin().get(PATH);

      assertThat(response.statusCode()).isEqualTo(503);
      assertThat(body(response).get("error").stringValue()).contains("Redis");
    } finally {
      redis.server().resume();
    }
  }

  /** Writes a sample as a worker would, {@code offset} after {@link #start}. */
  private void record(Duration offset, long waiting, long running, long finished, long admitted) {
    clock.set(start.plus(offset));
    Boolean kept =
        writer.record("shop", new HistorySample(0, waiting, running, finished, admitted)).block();
    assertThat(kept).isTrue();
  }

  private String at(Duration offset) {
    return start.plus(offset).toString();
  }

  private static List<String> list(JsonNode samples, String field) {
    List<String> values = new ArrayList<>();
    for (JsonNode sample : samples) {
      JsonNode value = sample.get(field);
      values.add(value.isString() ? value.stringValue() : value.toString());
    }
    return values;
  }
}
