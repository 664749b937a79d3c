package io.anteroom.gateway.room;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every spelling of an item id, on a queue that is on and holds visitors, sent by a visitor without
 * a pass: it waits in the line of the one canonical id, or the gateway refuses it; the origin never
 * sees it, and a refused spelling leaves nothing in Redis. The shop room is the shipped one (ids
 * are integers); the other rooms read their ids from a path variable in any letter case, a path
 * variable whose ids may hold dots, a query parameter and a header. Every other path goes straight
 * to the same origin, so a spelling that escaped would show in the origin's log.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.tags.item=path:tag",
      "anteroom.rooms.tags.item-case=insensitive",
      "anteroom.rooms.tags.max-active=1",
      "anteroom.rooms.tags.activate-above=1000",
      "anteroom.rooms.files.item=path:name",
      "anteroom.rooms.files.item-pattern=[a-z0-9.-]{1,64}",
      "anteroom.rooms.files.max-active=1",
      "anteroom.rooms.files.activate-above=1000",
      "anteroom.rooms.by-query.item=query:id",
      "anteroom.rooms.by-query.item-format=integer",
      "anteroom.rooms.by-query.item-refusal=400",
      "anteroom.rooms.by-query.max-active=1",
      "anteroom.rooms.by-query.activate-above=1000",
      "anteroom.rooms.by-header.item=header:X-Item",
      "anteroom.rooms.by-header.item-format=integer",
      "anteroom.rooms.by-header.max-active=1",
      "anteroom.rooms.by-header.activate-above=1000",
      ItemSpellingIntegrationTests.ROUTES + "[0].id=shop-products",
      ItemSpellingIntegrationTests.ROUTES + "[0].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES
          + "[0].predicates[0]=Path=/products/{id},/products/{id}/**",
      ItemSpellingIntegrationTests.ROUTES + "[0].filters[0]=WaitingRoom=shop",
      ItemSpellingIntegrationTests.ROUTES + "[1].id=tags",
      ItemSpellingIntegrationTests.ROUTES + "[1].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES + "[1].predicates[0]=Path=/tags/{tag}",
      ItemSpellingIntegrationTests.ROUTES + "[1].filters[0]=WaitingRoom=tags",
      ItemSpellingIntegrationTests.ROUTES + "[2].id=files",
      ItemSpellingIntegrationTests.ROUTES + "[2].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES + "[2].predicates[0]=Path=/files/{name}",
      ItemSpellingIntegrationTests.ROUTES + "[2].filters[0]=WaitingRoom=files",
      ItemSpellingIntegrationTests.ROUTES + "[3].id=by-query",
      ItemSpellingIntegrationTests.ROUTES + "[3].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES + "[3].predicates[0]=Path=/item",
      ItemSpellingIntegrationTests.ROUTES + "[3].filters[0]=WaitingRoom=by-query",
      ItemSpellingIntegrationTests.ROUTES + "[4].id=by-header",
      ItemSpellingIntegrationTests.ROUTES + "[4].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES + "[4].predicates[0]=Path=/api/item",
      ItemSpellingIntegrationTests.ROUTES + "[4].filters[0]=WaitingRoom=by-header",
      ItemSpellingIntegrationTests.ROUTES + "[5].id=everything-else",
      ItemSpellingIntegrationTests.ROUTES + "[5].uri=${ANTEROOM_ORIGIN}",
      ItemSpellingIntegrationTests.ROUTES + "[5].predicates[0]=Path=/**"
    })
class ItemSpellingIntegrationTests {

  static final String ROUTES = "spring.cloud.gateway.server.webflux.routes";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  /** The one spelling of each room's item, and the request that names it. */
  private record Room(String name, String item, String path, String... headers) {}

  private static final Map<String, Room> ROOMS =
      Map.of(
          "shop", new Room("shop", "1", "/products/1"),
          "tags", new Room("tags", "sale", "/tags/sale"),
          "files", new Room("files", "report.js", "/files/report.js"),
          "by-query", new Room("by-query", "1", "/item?id=1"),
          "by-header", new Room("by-header", "1", "/api/item", "X-Item", "1"));

  private enum Outcome {
    /** Waits in the line of the room's item. */
    QUEUED,
    /** Refused by the room: the status and {@code {"error":"invalid-item"}}. */
    REFUSED,
    /** Refused before any route is chosen: 400 {@code ambiguous-path}. */
    AMBIGUOUS_PATH
  }

  private record Spelling(String room, Outcome outcome, int status, String path, String[] headers) {
    @Override
    public String toString() {
      String request = path + (headers.length == 0 ? "" : " " + Arrays.toString(headers));
      return request + " -> " + (outcome == Outcome.QUEUED ? "queued in " + room : status);
    }
  }

  private static Spelling queued(String room, String path, String... headers) {
    return new Spelling(room, Outcome.QUEUED, 200, path, headers);
  }

  private static Spelling refused(String room, int status, String path, String... headers) {
    return new Spelling(room, Outcome.REFUSED, status, path, headers);
  }

  private static Spelling ambiguous(String room, String path) {
    return new Spelling(room, Outcome.AMBIGUOUS_PATH, 400, path, new String[0]);
  }

  static Stream<Spelling> spellings() {
    return Stream.of(
        // The shipped shop: integer ids in the path; 404 for anything else.
        queued("shop", "/products/1"),
        queued("shop", "/products/01"),
        queued("shop", "/products/001"),
        queued("shop", "/products/+1"),
        queued("shop", "/products/+001"),
        queued("shop", "/products/01/reviews"),
        refused("shop", 404, "/products/1."),
        refused("shop", 404, "/products/1.json"),
        refused("shop", 404, "/products/1.js"),
        refused("shop", 404, "/products/1.0"),
        refused("shop", 404, "/products/%EF%BC%91"),
        refused("shop", 404, "/products/%D9%A1"),
        refused("shop", 404, "/products/0x1"),
        refused("shop", 404, "/products/%231"),
        refused("shop", 404, "/products/1e0"),
        refused("shop", 404, "/products/1a"),
        refused("shop", 404, "/products/%201"),
        refused("shop", 404, "/products/1%20"),
        refused("shop", 404, "/products/1%2C2"),
        refused("shop", 404, "/products/99999999999999999999"),
        ambiguous("shop", "/products/%31"),
        ambiguous("shop", "/products/1;x"),
        ambiguous("shop", "/products/1%2e"),
        // Text ids in any letter case, lower-cased.
        queued("tags", "/tags/sale"),
        queued("tags", "/tags/Sale"),
        queued("tags", "/tags/SALE"),
        refused("tags", 404, "/tags/sale.json"),
        refused("tags", 404, "/tags/s%C3%A1le"),
        refused("tags", 404, "/tags/sale%20"),
        // Ids that may hold a dot: the extension of the item is no static asset's.
        queued("files", "/files/report.js"),
        refused("files", 404, "/files/Report.js"),
        // A query parameter: exactly once, plain and not empty; 400 for anything else.
        queued("by-query", "/item?id=1"),
        queued("by-query", "/item?id=01"),
        queued("by-query", "/item?x=2&id=001"),
        refused("by-query", 400, "/item?id=1&id=2"),
        refused("by-query", 400, "/item?id=1&id=1"),
        refused("by-query", 400, "/item?id=1;id=2"),
        refused("by-query", 400, "/item?id="),
        refused("by-query", 400, "/item?id"),
        refused("by-query", 400, "/item?id=%31"),
        refused("by-query", 400, "/item?i%64=1"),
        refused("by-query", 400, "/item?id=1&i%64=2"),
        refused("by-query", 400, "/item?id=+1"),
        refused("by-query", 400, "/item?id=1x"),
        refused("by-query", 400, "/item?id=%EF%BC%91"),
        // Parameters some framework reads as the item: another case, brackets.
        refused("by-query", 400, "/item?ID=1"),
        refused("by-query", 400, "/item?Id=1&id=1"),
        refused("by-query", 400, "/item?id[]=1"),
        refused("by-query", 400, "/item?id%5B0%5D=1"),
        // A header: exactly once, plain and not empty.
        queued("by-header", "/api/item", "X-Item", "1"),
        queued("by-header", "/api/item", "X-Item", "001"),
        queued("by-header", "/api/item", "X-Item", "+1"),
        refused("by-header", 404, "/api/item", "X-Item", "1", "X-Item", "1"),
        refused("by-header", 404, "/api/item", "X-Item", "1", "x-item", "2"),
        refused("by-header", 404, "/api/item", "X-Item", ""),
        refused("by-header", 404, "/api/item", "X-Item", "1, 2"),
        refused("by-header", 404, "/api/item", "X-Item", "%31"),
        refused("by-header", 404, "/api/item", "X-Item", "0x1"),
        refused("by-header", 404, "/api/item", "X_Item", "1"));
  }

  static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired TokenCodec tokens;
  @Autowired HitFlusher hits;
  @Autowired MeterRegistry meters;

  @ParameterizedTest(name = "{0}")
  @MethodSource("spellings")
  void spellingOfAnItemWaitsInItsOneLineOrIsRefusedNeverForwarded(Spelling spelling) {
    Room room = ROOMS.get(spelling.room());
    QueueId queue = QueueId.of(room.name(), room.item());
    lineUpSomeone(room, queue);
    double refusedBefore = invalidItems(room.name());

    Visitor visitor = new Visitor(port);
    HttpResponse<String> response = visitor.send(request(spelling.path(), spelling.headers()));

    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).as("requests the origin saw").isEmpty();
    assertThat(response.statusCode()).as(response.body()).isEqualTo(spelling.status());
    String ticket = visitor.cookie("anteroom_ticket_" + room.name());
    switch (spelling.outcome()) {
      case QUEUED -> {
        assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
        assertThat(queueOfTicket(ticket, room.name())).isEqualTo(queue);
      }
      case REFUSED -> {
        assertThat(response.body()).isEqualTo("{\"error\":\"invalid-item\"}");
        assertThat(ticket).isNull();
        assertThat(invalidItems(room.name())).isEqualTo(refusedBefore + 1);
      }
      case AMBIGUOUS_PATH -> assertThat(response.body()).contains("ambiguous-path");
    }
    hits.flush().block(Duration.ofSeconds(5));
    assertThat(queuesInRedis(room.name())).as("queues with keys in Redis").containsOnly(queue);
  }

  @Test
  void withoutTheParameterThenWaitsInTheRoomWideLine() {
    Room room = ROOMS.get("by-query");
    QueueId roomWide = QueueId.roomWide(room.name());
    lineUpSomeone(new Room(room.name(), roomWide.item(), "/item"), roomWide);

    Visitor visitor = new Visitor(port);
    HttpResponse<String> response = visitor.send(request("/item", new String[0]));

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    assertThat(queueOfTicket(visitor.cookie("anteroom_ticket_by-query"), room.name()))
        .isEqualTo(roomWide);
  }

  @Test
  void aWriteNamingNoItemNeedsAPassOfTheRoomItsOriginMayReadTheItemFromTheBody() throws Exception {
    for (String path : List.of("/item", "/item?other=1")) {
      HttpResponse<String> response =
          HTTP.send(
              request(path, new String[0])
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString("id=1"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(path).isEqualTo(400);
    }
    HttpResponse<String> read =
        HTTP.send(
            request("/item", new String[0]).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(read.statusCode())
        .as("a read naming no item: the room-wide line, off")
        .isEqualTo(200);
    assertThat(origin.findAll(postRequestedFor(anyUrl()))).isEmpty();
  }

  /** Turns the queue on and has someone wait in it, so every next newcomer waits too. */
  private void lineUpSomeone(Room room, QueueId queue) {
    active.activate(queue, Activation.MANUAL).block(Duration.ofSeconds(5));
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(queue));
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> response = new Visitor(port).send(request(room.path(), room.headers()));
      if ("waiting".equals(Visitor.text(response.body(), "state"))) {
        origin.resetRequests();
        return;
      }
    }
    throw new AssertionError("nobody had to wait at " + room.path());
  }

  private HttpRequest.Builder request(String path, String[] headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "application/json");
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return request;
  }

  /** The queue a ticket cookie holds a place in. */
  private QueueId queueOfTicket(String token, String room) {
    assertThat(token).as("ticket cookie").isNotNull();
    Verified<Ticket> ticket = tokens.readTicket(token, room);
    assertThat(ticket).isInstanceOf(Verified.Valid.class);
    return ((Verified.Valid<Ticket>) ticket).value().queue();
  }

  private double invalidItems(String room) {
    Counter counter =
        meters
            .find("anteroom.gateway.requests")
            .tags("room", room, "decision", "invalid_item")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /**
   * The queues of {@code room} that have keys in Redis. Other rooms' are left out: the gateway's
   * own flush of request counts may still be writing those of the test before.
   */
  private static List<QueueId> queuesInRedis(String room) {
    String keys = redis.server().command("KEYS", "*");
    // A queue's keys are <prefix>:{room}:<item>:<part> (QueueKeys); the room's own have no item.
    Matcher key =
        Pattern.compile("\\{([^}]*)}:([^:\\s]+):(?:waiting|running|finished|seen|state|hits)")
            .matcher(keys == null ? "" : keys);
    return key.results()
        .map(m -> new QueueId(m.group(1), m.group(2)))
        .filter(queue -> queue.room().equals(room))
        .distinct()
        .toList();
  }
}
