package io.anteroom.gateway.bounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.filter.WaitingRoomGatewayFilterFactory;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.GatewayFilter;

/**
 * 20,000 requests, each for a new random item id that fits the room's ids (twelve-digit numbers:
 * the shop's ids are integers), twenty times the idle lines a room keeps, from new visitors without
 * cookies, through a real gateway's waiting-room filter (in-process, {@link Flood}: such floods
 * over HTTP take minutes on two cores) with a worker running, in each mode where such a flood used
 * to leave state behind. Afterwards a real item still queues and is admitted, and Redis never held
 * more keys than the bound below.
 *
 * <p>The bound, for the one room: each queue's line is at most five keys (waiting, running,
 * finished, seen, state); at most {@value #MAX_QUEUES} queues of the room are on; of the queues
 * that are off, at most {@value #IDLE_LINES} keep their keys, the least recently written are
 * deleted beyond that; lines written lately may not be counted yet: a gateway gathers at most
 * {@value #REPORTS} reports while it sends as many, and sends any beyond that one by one, allowed
 * for here as one per request in flight ({@value #IN_FLIGHT}); request counts go to Redis only for
 * items with a tenth of the activation threshold, places per visitor id only for ids that came
 * back; a few keys are the room's own (settings, history, active queues). So at most {@code 5 ×
 * (100 + 1,000 + 2 × 256 + 256) + 20 = 9,360} keys, whatever the number of requests.
 *
 * <p>The number of requests is set with the environment variable {@code ANTEROOM_FLOOD_REQUESTS}:
 * docs/operations.md's figures are of 100,000.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.max-queues-per-room=" + RandomItemFloodIntegrationTests.MAX_QUEUES,
      "anteroom.idle-lines.per-room=" + RandomItemFloodIntegrationTests.IDLE_LINES,
      "anteroom.rooms.shop.admit-per-second=5",
      "anteroom.rooms.shop.max-queues-per-identity=3"
    })
@SystemTest
class RandomItemFloodIntegrationTests {

  static final int MAX_QUEUES = 100;
  static final int IDLE_LINES = 1_000;
  static final int IN_FLIGHT = 256;

  /** Reports of idle lines a gateway gathers while it sends as many (IdleReports.MAX_PENDING). */
  static final int REPORTS = 256;

  static final long KEY_BOUND = 5L * (MAX_QUEUES + IDLE_LINES + 2 * REPORTS + IN_FLIGHT) + 20;
  static final int REQUESTS =
      Integer.parseInt(System.getenv().getOrDefault("ANTEROOM_FLOOD_REQUESTS", "20000"));

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
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policies;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicies roomPolicies;
  @Autowired QueueKeys keys;

  @Autowired WaitingRoomGatewayFilterFactory filters;
  GatewayFilter filter;

  @BeforeEach
  void refresh() {
    mirror.refresh().block();
    policies.refresh().block();
    origin.resetRequests();
    WaitingRoomGatewayFilterFactory.Config shop = new WaitingRoomGatewayFilterFactory.Config();
    shop.setRoom("shop");
    filter = filters.apply(shop);
  }

  void set(Map<String, String> values) {
    settings.put("shop", null, values).block();
    policies.refresh().block();
  }

  @Test
  void floodInQueueAllThenARealItemQueuesAndIsAdmittedAndRedisStaysBounded() throws Exception {
    set(Map.of("mode", "queue-all"));
    try (WorkerFixture worker = worker()) {
      Flooded flooded = flood("queue-all");

      // More than the bucket holds (admit-per-second 5, admit-burst 1s), so some have to wait.
      List<Visitor> visitors = arrive("/products/9000001", 8);
      assertThat(states(visitors, "/products/9000001")).contains("waiting");
      awaitAdmitted(visitors);
      flooded.stayedBounded();
    }
  }

  @Test
  void floodWhilePausedThenARealItemQueuesAndIsAdmittedOnResumeAndRedisStaysBounded()
      throws Exception {
    set(Map.of("mode", "paused"));
    try (WorkerFixture worker = worker()) {
      Flooded flooded = flood("paused");

      List<Visitor> visitors = arrive("/products/9000002", 3);
      assertThat(states(visitors, "/products/9000002")).containsOnly("paused");
      for (Visitor visitor : visitors) {
        assertThat(Visitor.text(poll(visitor), "state")).isEqualTo("paused");
      }
      awaitOn("9000002");
      set(Map.of("mode", "queue-all"));
      awaitAdmitted(visitors);
      flooded.stayedBounded();
    }
  }

  @Test
  void floodInAPreQueueThenARealItemQueuesAndIsAdmittedAtTheStartAndRedisStaysBounded()
      throws Exception {
    set(Map.of("event-start", Instant.now().plus(Duration.ofHours(1)).toString()));
    try (WorkerFixture worker = worker()) {
      Flooded flooded = flood("pre-queue");

      List<Visitor> visitors = arrive("/products/9000003", 3);
      assertThat(states(visitors, "/products/9000003")).containsOnly("pre-queue");
      for (Visitor visitor : visitors) {
        assertThat(Visitor.text(poll(visitor), "state")).isEqualTo("pre-queue");
      }
      // Its line is on before the start, so the worker admits from it at the room's rate.
      awaitOn("9000003");
      set(Map.of("event-start", Instant.now().plusSeconds(3).toString()));
      awaitAdmitted(visitors);
      flooded.stayedBounded();
    }
  }

  @Test
  void floodOfUnqueuedItemsThenARealItemsTrafficTurnsItsQueueOnAndRedisStaysBounded()
      throws Exception {
    set(Map.of("mode", "queue", "activate-above", "50"));
    try (WorkerFixture worker = worker()) {
      Flooded flooded = flood("queue, activate-above 50");

      QueueId real = QueueId.of("shop", "9000004");
      // Fast enough to let in the burst that turns it on before the visitors below.
      settings
          .put("shop", "9000004", Map.of("admit-per-second", "1000", "max-active", "100000"))
          .block();
      policies.refresh().block();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                Flood.through(filter, 200, 4, n -> "9000004");
                return mirror.isActive(real);
              });
      // The burst's newcomers are let in; then the line moves at 2 a second, bucket of 2.
      await().atMost(Duration.ofSeconds(20)).until(() -> direct.zcard(keys.waiting(real)) == 0);
      settings.put("shop", "9000004", Map.of("admit-per-second", "2")).block();
      policies.refresh().block();
      List<Visitor> visitors = arrive("/products/9000004", 4);
      assertThat(states(visitors, "/products/9000004")).contains("waiting");
      assertThat(mirror.isActive(real)).isTrue();
      awaitAdmitted(visitors);
      flooded.stayedBounded();
    }
  }

  /** Waits until the queue of {@code item} is on, as the gateway knows it. */
  void awaitOn(String item) {
    QueueId queue = QueueId.of("shop", item);
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(queue));
  }

  WorkerFixture worker() {
    return WorkerFixture.running(redis.uri(), keys, roomPolicies, "100ms");
  }

  /** The figures of one flood: its answers, and the most keys Redis held during and after. */
  record Flooded(Flood.Result result, long mostKeys, long keysAfter) {

    /**
     * No request failed (503 is the failure policy's answer to a slow Redis), and the bound held.
     */
    void stayedBounded() {
      assertThat(result.statuses().keySet()).allMatch(status -> status == 200 || status == 503);
      assertThat(mostKeys).as("keys in Redis during the flood").isLessThanOrEqualTo(KEY_BOUND);
      assertThat(keysAfter).as("keys in Redis after the flood").isLessThanOrEqualTo(KEY_BOUND);
    }
  }

  /** Sends the flood while sampling the number of keys in Redis, and prints the figures. */
  Flooded flood(String mode) throws Exception {
    AtomicLong most = new AtomicLong();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler =
        new Thread(
            () -> {
              try (StatefulRedisConnection<String, String> own = client.connect()) {
                while (sampling.get()) {
                  most.accumulateAndGet(own.sync().dbsize(), Math::max);
                  LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                }
              }
            });
    sampler.start();
    Flood.Result result;
    try {
      result = Flood.through(filter, REQUESTS, IN_FLIGHT, n -> Flood.randomId(12));
    } finally {
      sampling.set(false);
      sampler.join();
    }
    long after = direct.dbsize();
    System.out.printf(
        "flood, %s: %,d requests in %,d ms (%,.0f/s), answers %s; keys at most %,d during,"
            + " %,d after; bound %,d%n",
        mode,
        result.requests(),
        result.millis(),
        result.perSecond(),
        result.statuses(),
        most.get(),
        after,
        KEY_BOUND);
    return new Flooded(result, most.get(), after);
  }

  /** {@code count} new visitors, each with its own cookies. */
  List<Visitor> arrive(String path, int count) {
    List<Visitor> visitors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      visitors.add(new Visitor(port));
    }
    return visitors;
  }

  /** Each visitor's first request to {@code path}: the state each is told. */
  List<String> states(List<Visitor> visitors, String path) {
    List<String> states = new ArrayList<>();
    for (Visitor visitor : visitors) {
      HttpResponse<String> response = visitor.json(path);
      states.add(
          response.body().contains("Product page")
              ? "entered"
              : Visitor.text(response.body(), "state"));
    }
    return states;
  }

  static String poll(Visitor visitor) {
    return visitor.json("/_anteroom/status?room=shop").body();
  }

  /** Every visitor that did not enter at once is admitted, polling as the waiting page does. */
  static void awaitAdmitted(List<Visitor> visitors) {
    for (Visitor visitor : visitors) {
      if (visitor.cookie("anteroom_ticket_shop") == null) {
        continue;
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .until(() -> "admitted".equals(Visitor.text(poll(visitor), "state")));
    }
  }
}
