package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The fairness settings through the real gateway: identities bound from a header, the caps on
 * places, the client address behind a trusted proxy, and a scheduled event's pre-queue with a
 * worker admitting. Every item's queue holds everyone (queue-all), and no worker runs except in the
 * pre-queue test, so people stay where they are put.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.mode=queue-all",
      "anteroom.rooms.shop.identity=header:X-User-Id",
      "anteroom.visitors.identity-secret=identity-secret-of-the-tests",
      "anteroom.gateway.trusted-proxies=127.0.0.1"
    })
class LineFairnessIntegrationTests {

  static final String USER = "X-User-Id";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static RedisClient client;
  static RedisCommands<String, String> direct;

  @BeforeAll
  static void connect() {
    client = RedisClient.create(redis.uri());
    direct = client.connect().sync();
  }

  @AfterAll
  static void stop() {
    client.shutdown();
  }

  @LocalServerPort int port;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired RoomPolicies roomPolicies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void refresh() {
    mirror.refresh().block();
    policies.refresh().block();
  }

  /** Live overrides for one item's queue, once the gateway has them. */
  void override(String item, Map<String, String> values) {
    settings.put("shop", item, values).block();
    policies.refresh().block();
  }

  HttpResponse<String> asUser(Visitor visitor, String path, String user, String accept) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", accept)
            .GET();
    if (user != null) {
      request.header(USER, user);
    }
    return visitor.send(request);
  }

  HttpResponse<String> forwardedFor(String path, String address) {
    return new Visitor(port)
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", "application/json")
                .header("X-Forwarded-For", address)
                .GET());
  }

  /** The status code of a request sent from the loopback address {@code from}. */
  int statusFrom(String from, String path, String forwardedFor) {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET "
                  + path
                  + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                  + "X-Forwarded-For: "
                  + forwardedFor
                  + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(head.substring(9, 12));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until the current one-minute window has at least 10 s left, so a test fits in one. */
  static void awayFromTheMinutesEnd() {
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> Instant.now().getEpochSecond() % 60 < 50);
  }

  @Test
  void twoBrowsersOfOneUserShareOnePlace() {
    Visitor.lineUpSomeone(port, "/products/71");
    Visitor laptop = new Visitor(port);
    Visitor phone = new Visitor(port);

    HttpResponse<String> first = asUser(laptop, "/products/71", "alice", "application/json");
    HttpResponse<String> second = asUser(phone, "/products/71", "alice", "application/json");
    HttpResponse<String> poll =
        asUser(phone, "/_anteroom/status?room=shop", "alice", "application/json");

    long position = Visitor.field(first.body(), "position");
    assertThat(Visitor.text(first.body(), "state")).isEqualTo("waiting");
    assertThat(Visitor.field(second.body(), "position")).isEqualTo(position);
    assertThat(Visitor.field(second.body(), "waiting"))
        .isEqualTo(Visitor.field(first.body(), "waiting"));
    assertThat(Visitor.field(poll.body(), "position")).isEqualTo(position);
    QueueId queue = QueueId.of("shop", "71");
    assertThat(direct.zcard(keys.waiting(queue))).isEqualTo(position);
    assertThat(direct.keys("*alice*")).isEmpty();
    // Another identity in the same browser, and the same browser without one, are other people.
    assertThat(
            Visitor.field(
                asUser(laptop, "/products/71", "bob", "application/json").body(), "position"))
        .isEqualTo(position + 1);
    assertThat(Visitor.field(new Visitor(port).json("/products/71").body(), "position"))
        .isEqualTo(position + 2);
  }

  @Test
  void aPollUnderAnotherIdentityIsNotAnsweredWithTheTicketsPlace() {
    Visitor.lineUpSomeone(port, "/products/72");
    Visitor laptop = new Visitor(port);
    HttpResponse<String> joined = asUser(laptop, "/products/72", "alice", "application/json");
    assertThat(Visitor.text(joined.body(), "state")).isEqualTo("waiting");

    HttpResponse<String> asBob =
        asUser(laptop, "/_anteroom/status?room=shop", "bob", "application/json");
    HttpResponse<String> asAlice =
        asUser(laptop, "/_anteroom/status?room=shop", "alice", "application/json");

    assertThat(asBob.body()).as("alice's ticket in bob's session").doesNotContain("\"position\"");
    assertThat(Visitor.field(asAlice.body(), "position"))
        .isEqualTo(Visitor.field(joined.body(), "position"));
  }

  @Test
  void anIdentityOverItsCapOfQueuesIsRefusedWith429UntilItLeavesOne() {
    for (String item : List.of("72", "73")) {
      Visitor.lineUpSomeone(port, "/products/" + item);
      override(item, Map.of("max-queues-per-identity", "1"));
    }
    Visitor carol = new Visitor(port);
    assertThat(asUser(carol, "/products/72", "carol", "application/json").statusCode())
        .isEqualTo(200);

    HttpResponse<String> refused =
        asUser(new Visitor(port), "/products/73", "carol", "application/json");
    HttpResponse<String> page = asUser(new Visitor(port), "/products/73", "carol", "text/html");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).hasValue("60");
    assertThat(refused.body())
        .isEqualTo(
            "{\"state\":\"refused\",\"reason\":\"too-many-queues-per-identity\","
                + "\"retryAfterSeconds\":60}");
    assertThat(page.statusCode()).isEqualTo(429);
    assertThat(page.body()).contains("You cannot take another place right now");
    assertThat(asUser(carol, "/products/72", "carol", "application/json").statusCode())
        .isEqualTo(200);

    store.release(QueueId.of("shop", "72"), carolsId()).block();

    // Once the claim on 72 has settled (two seconds), it is checked against its line.
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                "waiting"
                    .equals(
                        Visitor.text(
                            asUser(new Visitor(port), "/products/73", "carol", "application/json")
                                .body(),
                            "state")));
  }

  /** Carol's visitor id, the only one with places recorded for the cap. */
  String carolsId() {
    List<String> places = new ArrayList<>(direct.keys(keys.places("shop", "*")));
    assertThat(places).hasSize(1);
    String key = places.get(0);
    return key.substring(key.lastIndexOf(':') + 1);
  }

  @Test
  void thePerAddressLimitTripsForOneForwardedAddressAndNotForOthers() {
    Visitor.lineUpSomeone(port, "/products/74");
    override("74", Map.of("new-places-per-ip-per-minute", "3"));
    awayFromTheMinutesEnd();
    double rejectedBefore =
        meters.counter("anteroom.gateway.requests", "room", "shop", "decision", "rejected").count();

    for (int i = 0; i < 3; i++) {
      HttpResponse<String> allowed = forwardedFor("/products/74", "203.0.113.7");
      assertThat(Visitor.text(allowed.body(), "state")).isEqualTo("waiting");
    }
    HttpResponse<String> refused = forwardedFor("/products/74", "203.0.113.7");
    HttpResponse<String> other = forwardedFor("/products/74", "203.0.113.8");
    HttpResponse<String> chained =
        forwardedFor("/products/74", "203.0.113.7, 127.0.0.1, 203.0.113.9");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(Visitor.text(refused.body(), "reason"))
        .isEqualTo("too-many-new-places-from-address");
    long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, 60L);
    assertThat(Visitor.text(other.body(), "state")).isEqualTo("waiting");
    assertThat(Visitor.text(chained.body(), "state")).isEqualTo("waiting");
    assertThat(
            meters
                .counter("anteroom.gateway.requests", "room", "shop", "decision", "rejected")
                .count())
        .isEqualTo(rejectedBefore + 1);
  }

  @Test
  void aForwardedForFromAnUntrustedPeerIsIgnored() {
    Visitor.lineUpSomeone(port, "/products/75");
    override("75", Map.of("new-places-per-ip-per-minute", "2"));
    awayFromTheMinutesEnd();

    // 127.0.0.2 is not a trusted proxy: each made-up address still counts as 127.0.0.2.
    int first = statusFrom("127.0.0.2", "/products/75", "198.51.100.1");
    int second = statusFrom("127.0.0.2", "/products/75", "198.51.100.2");
    int third = statusFrom("127.0.0.2", "/products/75", "198.51.100.3");

    assertThat(List.of(first, second, third)).containsExactly(200, 200, 429);
    assertThat(forwardedFor("/products/75", "198.51.100.3").statusCode()).isEqualTo(200);
  }

  @Test
  void preQueueHoldsEveryoneUntilTheStartThenAdmits() {
    QueueId queue = QueueId.of("shop", "76");
    Visitor early = new Visitor(port);
    assertThat(early.json("/products/76").body()).contains("Product page");
    override("76", Map.of("admit-per-second", "20"));
    // A first try comes once the bucket holds tokens again, so Dave goes straight in.
    await()
        .pollDelay(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                asUser(new Visitor(port), "/products/76", "dave", "application/json")
                    .body()
                    .contains("Product page"));
    // Both sessions are recorded as running before the event is set.
    await().atMost(Duration.ofSeconds(5)).until(() -> direct.zcard(keys.running(queue)) == 2);
    Instant start = Instant.now().plusSeconds(10);
    override("76", Map.of("event-start", start.toString()));

    // Dave's session from before the event does not let him in on another device either.
    HttpResponse<String> dave =
        asUser(new Visitor(port), "/products/76", "dave", "application/json");
    assertThat(Visitor.text(dave.body(), "state")).isEqualTo("pre-queue");
    List<Visitor> visitors = new ArrayList<>(List.of(early));
    for (int i = 0; i < 3; i++) {
      visitors.add(new Visitor(port));
    }
    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, roomPolicies, "100ms")) {
      for (Visitor visitor : visitors) {
        HttpResponse<String> held = visitor.json("/products/76");
        assertThat(Visitor.text(held.body(), "state")).isEqualTo("pre-queue");
        assertThat(Visitor.field(held.body(), "startsInSeconds")).isBetween(1L, 10L);
      }
      assertThat(new Visitor(port).page("/products/76").body())
          .contains("<span id=\"state\" hidden>pre-queue</span>")
          .doesNotContain("id=\"prequeue\" hidden");
      // Polls before the start find everyone still held, with the worker running.
      while (Instant.now().isBefore(start.minusMillis(1500))) {
        assertThat(Visitor.text(early.json("/_anteroom/status?room=shop").body(), "state"))
            .isEqualTo("pre-queue");
        assertThat(direct.zcard(keys.waiting(queue))).isEqualTo(6);
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
      }

      for (Visitor visitor : visitors) {
        await()
            .atMost(Duration.ofSeconds(15))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () ->
                    "admitted"
                        .equals(
                            Visitor.text(
                                visitor.json("/_anteroom/status?room=shop").body(), "state")));
      }
    }
    assertThat(Instant.now()).isAfterOrEqualTo(start);
    assertThat(visitors.get(1).json("/products/76").body()).contains("Product page");
  }
}
