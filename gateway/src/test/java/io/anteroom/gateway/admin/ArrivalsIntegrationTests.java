package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.arrival.Arrival;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.JsonNode;

/**
 * Recording a room's arrivals end to end, against a real Redis and a WireMock origin, on a clock
 * the test holds still: which requests the filter records ({@code record-arrivals: 1} in the room's
 * YAML), the gateway's flush, and the admin API's CSV export of the stream.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.record-arrivals=1",
      "anteroom.admin.token=" + ArrivalsIntegrationTests.ADMIN,
      "anteroom.admin.tokens.vera.role=viewer",
      // printf %s viewer-token-0123456789abcdef | sha256sum
      "anteroom.admin.tokens.vera.sha256="
          + "1ab54f182b9a50d530abaeb7b999bc51e2194931aef2cf21d6c799bae267ce6c"
    })
class ArrivalsIntegrationTests {

  static final String ADMIN = "admin-token-0123456789abcdef";
  static final String VIEWER = "viewer-token-0123456789abcdef";
  static final String PATH = "/admin/api/rooms/shop/arrivals";

  static final MutableClock CLOCK = new MutableClock(Instant.now());

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @TestConfiguration
  static class StillClock {
    @Bean
    @Primary
    Clock stillClock() {
      return CLOCK;
    }
  }

  final QueueId waiting = QueueId.of("shop", "2");
  final QueueId closed = QueueId.of("shop", "3");

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policies;
  @Autowired RedisArrivals arrivals;
  @Autowired MeterRegistry meters;

  /** Product 2's queue is on, product 3's is closed, product 1's is off. */
  @BeforeEach
  void queues() {
    redis.server().flushAll();
    active.activate(waiting, Activation.MANUAL).block();
    settings.put("shop", closed.item(), Map.of("mode", "closed")).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> mirror.isActive(waiting) && policies.policy(closed).mode() == Mode.CLOSED);
    origin.resetRequests();
  }

  AdminClient as(String token) {
    return new AdminClient(managementPort, token);
  }

  /** The export's lines, the two heading lines included. */
  List<String> export(String query) {
    HttpResponse<String> response = as(VIEWER).get(PATH + query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Arrays.asList(response.body().split("\n", -1));
  }

  /** The export's rows, without its two heading lines and the empty end. */
  List<String> rows() {
    List<String> lines = export("");
    return lines.subList(2, lines.size() - 1);
  }

  double counted(String outcome) {
    return meters.counter("anteroom.gateway.arrivals", "room", "shop", "outcome", outcome).count();
  }

  @Test
  void newcomersAreRecordedOnceWhateverTheVerdictAndPassHoldersTicketHoldersAndBypassesAreNot() {
    long t = CLOCK.millis();
    double recorded = counted("recorded");
    double dropped = counted("dropped");
    Visitor entering = new Visitor(port);
    assertThat(entering.get("/products/1", "text/html").statusCode())
        .as("queue off")
        .isEqualTo(200);
    assertThat(entering.get("/products/1", "text/html").statusCode()).as("pass").isEqualTo(200);
    assertThat(entering.get("/products/1/logo.png", "image/png").statusCode()).isEqualTo(200);
    assertThat(entering.get("/about", "text/html").statusCode()).as("no room").isEqualTo(200);

    CLOCK.advance(Duration.ofMillis(40));
    Visitor inLine = new Visitor(port);
    assertThat(inLine.get("/products/2", "text/html").statusCode()).as("waits").isEqualTo(200);
    assertThat(inLine.get("/products/2", "text/html").statusCode()).as("ticket").isEqualTo(200);
    // The status endpoint is no way into the room: a poll is never an arrival, whatever it answers.
    assertThat(inLine.json("/_anteroom/status?room=shop").statusCode()).isNotEqualTo(500);

    CLOCK.advance(Duration.ofMillis(2));
    Visitor late = new Visitor(port);
    assertThat(late.get("/products/3", "text/html").statusCode()).as("closed").isNotEqualTo(500);
    assertThat(late.get("/products/03", "text/html").statusCode()).isNotEqualTo(500);

    await().atMost(Duration.ofSeconds(10)).until(() -> rows().size() >= 4);
    // Another flush or two: nothing more comes.
    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> rows().size() == 4);
    assertThat(rows()).containsExactly(t + ",1", (t + 40) + ",2", (t + 42) + ",3", (t + 42) + ",3");
    assertThat(counted("recorded") - recorded).isEqualTo(4);
    assertThat(counted("dropped") - dropped).isZero();
  }

  @Test
  void aNewcomerAskedForAPuzzleIsRecordedOnceAndNotAgainWhenAnsweringIt() {
    QueueId puzzled = QueueId.of("shop", "4");
    active.activate(puzzled, Activation.MANUAL).block();
    settings.put("shop", puzzled.item(), Map.of("proof-of-work", "8")).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> mirror.isActive(puzzled) && policies.policy(puzzled).proofOfWork() == 8);
    long t = CLOCK.millis();
    Visitor visitor = new Visitor(port);

    assertThat(visitor.get("/products/4", "text/html").statusCode()).isNotEqualTo(500);
    HttpResponse<String> answering =
        visitor.send(
            HttpRequest.newBuilder(URI.create(visitor.base() + "/products/4"))
                .header("Anteroom-Proof", "not.solved")
                .GET());
    assertThat(answering.statusCode()).isNotEqualTo(500);

    await().atMost(Duration.ofSeconds(10)).until(() -> rows().size() >= 1);
    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> rows().size() == 1);
    assertThat(rows()).containsExactly(t + ",4");
  }

  @Test
  void exportIsCsvInTimeOrderWithTheLatestShareAndTheSpanOfTheArrivals() {
    long t = CLOCK.millis();
    // Two gateways' flushes: the second's arrival came between the first's, at another share.
    arrivals
        .record("shop", 0.25, List.of(new Arrival(t - 900, "42"), new Arrival(t - 100, "7")))
        .block();
    arrivals.record("shop", 0.1, List.of(new Arrival(t - 500, "_"))).block();

    HttpResponse<String> response = as(VIEWER).get(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
    assertThat(response.headers().firstValue("Content-Disposition"))
        .hasValueSatisfying(value -> assertThat(value).contains("arrivals-shop.csv"));
    assertThat(response.body())
        .isEqualTo(
            "# anteroom arrivals room=shop sample=0.1 from="
                + Instant.ofEpochMilli(t - 900)
                + " to="
                + Instant.ofEpochMilli(t - 100)
                + "\nat_ms,item\n"
                + (t - 900)
                + ",42\n"
                + (t - 500)
                + ",_\n"
                + (t - 100)
                + ",7\n");
  }

  @Test
  void exportFromToKeepsTheArrivalsBetweenAndStatesTheSpanAsked() {
    long t = CLOCK.millis();
    arrivals
        .record(
            "shop",
            0.5,
            List.of(
                new Arrival(t - 3000, "1"),
                new Arrival(t - 2000, "2"),
                new Arrival(t - 1000, "3"),
                new Arrival(t, "4")))
        .block();
    Instant from = Instant.ofEpochMilli(t - 2000);
    Instant to = Instant.ofEpochMilli(t - 1000);

    List<String> lines = export("?from=" + from + "&to=" + to);

    assertThat(lines)
        .containsExactly(
            "# anteroom arrivals room=shop sample=0.5 from=" + from + " to=" + to,
            "at_ms,item",
            (t - 2000) + ",2",
            (t - 1000) + ",3",
            "");
    assertThat(export("?from=" + Instant.ofEpochMilli(t + 1)).subList(2, 3)).containsExactly("");
  }

  @Test
  void exportOfNothingRecordedStatesTheRoomsShareAndHasNoRows() {
    List<String> lines = export("?from=2026-12-04T15:00:00Z&to=2026-12-04T15:10:00Z");

    assertThat(lines)
        .containsExactly(
            "# anteroom arrivals room=shop sample=1 from=2026-12-04T15:00:00Z"
                + " to=2026-12-04T15:10:00Z",
            "at_ms,item",
            "");
  }

  @Test
  void exportWithABadFromOrToIs400NamingItAndAnUnknownRoom404() {
    HttpResponse<String> from = as(VIEWER).get(PATH + "?from=yesterday");
    assertThat(from.statusCode()).isEqualTo(400);
    assertThat(body(from).get("error").stringValue()).startsWith("from: ");

    HttpResponse<String> to = as(VIEWER).get(PATH + "?to=2026-13-01T00:00:00Z");
    assertThat(to.statusCode()).isEqualTo(400);
    assertThat(body(to).get("error").stringValue()).startsWith("to: ");

    HttpResponse<String> backwards =
        as(VIEWER).get(PATH + "?from=2026-12-04T15:10:00Z&to=2026-12-04T15:00:00Z");
    assertThat(backwards.statusCode()).isEqualTo(400);
    assertThat(body(backwards).get("error").stringValue()).startsWith("to: ");

    HttpResponse<String> unknown = as(VIEWER).get("/admin/api/rooms/nope/arrivals");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(body(unknown).get("error").stringValue()).isEqualTo("unknown room");
  }

  @Test
  void exportWithoutATokenIs401() {
    HttpResponse<String> anonymous = as(null).get(PATH);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).doesNotContain("at_ms");
  }

  @Test
  void recordArrivalsOnAQueueOrOutOfRangeIsRefusedNamingIt() {
    for (String bad : List.of("1.5", "-0.1", "\"half\"")) {
      HttpResponse<String> room =
          as(ADMIN).patch("/admin/api/rooms/shop/settings", "{\"record-arrivals\": " + bad + "}");
      assertThat(room.statusCode()).as(bad).isEqualTo(400);
      assertThat(fields(body(room))).containsExactly("record-arrivals");
    }
    HttpResponse<String> queue =
        as(ADMIN).patch("/admin/api/rooms/shop/queues/1/settings", "{\"record-arrivals\": 0.5}");
    assertThat(queue.statusCode()).isEqualTo(400);
    assertThat(fields(body(queue))).containsExactly("record-arrivals");
    assertThat(queue.body()).contains("room-wide");

    HttpResponse<String> fine =
        as(ADMIN).patch("/admin/api/rooms/shop/settings", "{\"record-arrivals\": 0.25}");
    assertThat(fine.statusCode()).isEqualTo(200);
    assertThat(body(fine).get("effective").get("record-arrivals").stringValue()).isEqualTo("0.25");
  }

  @Test
  void visitorsWhileRedisDoesNotAnswerAreLetInAsBeforeAndTheirArrivalsCountedDropped() {
    double dropped = counted("dropped");
    redis.server().pause();
    try {
      Visitor visitor = new Visitor(port);
      long started = System.nanoTime();
      HttpResponse<String> response = visitor.get("/products/1", "text/html");
      assertThat(response.statusCode()).as("queue off: in, no Redis call").isEqualTo(200);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
      await().atMost(Duration.ofSeconds(10)).until(() -> counted("dropped") > dropped);
    } finally {
      redis.server().resume();
    }
  }

  private static List<String> fields(JsonNode body) {
    List<String> fields = new ArrayList<>();
    body.get("problems").forEach(problem -> fields.add(problem.get("field").stringValue()));
    return fields;
  }
}
