package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.AttackFigures;
import io.anteroom.testing.AttackTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Attack 1 at full size ({@code QueueModesIntegrationTests
 * .aLineManyWaitInTakesTheSlotOfAnAutomaticQueueOneWaitsIn} is its scaled sibling, 3 slots): in a
 * room whose pre-queue is open, 1,000 made-up item ids, each with two visitors and a status poll,
 * turn on as many queues as a room may have ({@code max-queues-per-room}, 1,000 by default). The
 * hot item's line must still turn on, and at the event's start its visitors must go in in line
 * order at the room's rate, not all at once. The real gateway over HTTP, a worker beside it.
 */
@AttackTest
@GatewayIntegrationTest
class PreQueueSlotsAttackIntegrationTests {

  static final int MADE_UP = 1000;
  static final int HOT_VISITORS = 40;
  static final double RATE = 5;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static RedisClient client;
  static RedisCommands<String, String> direct;

  static final AttackFigures FIGURES =
      AttackFigures.of("1-pre-queue-slots", "1. Made-up item ids fill a pre-queue room");

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
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired RoomPolicies roomPolicies;
  @Autowired SettingsStore settings;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;

  /** Two visitors of each made-up item join, the first asks its status once; 4 at a time. */
  void madeUpItems() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int lane = t;
      done.add(
          pool.submit(
              () -> {
                Visitor visitor = new Visitor(port);
                for (int i = lane; i < MADE_UP; i += 4) {
                  String path = "/products/" + (100_000 + i);
                  visitor.clearCookies();
                  assertThat(visitor.json(path).body()).contains("pre-queue");
                  assertThat(visitor.json("/_anteroom/status?room=shop").body())
                      .contains("pre-queue");
                  visitor.clearCookies();
                  assertThat(visitor.json(path).body()).contains("pre-queue");
                }
              }));
    }
    for (Future<?> lane : done) {
      lane.get();
    }
    pool.shutdown();
  }

  @Test
  void theHotLineTurnsOnAndOpensInOrderAtTheRoomsRate() throws Exception {
    settings.put("shop", null, Map.of("admit-per-second", String.valueOf((int) RATE))).block();
    settings
        .put("shop", null, Map.of("event-start", Instant.now().plusSeconds(3600).toString()))
        .block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                policies.policy(QueueId.of("shop", "1")).fairness().preQueue(Instant.now())
                    && policies.policy(QueueId.of("shop", "1")).admitPerSecond() == RATE);
    long setupStart = System.nanoTime();
    madeUpItems();
    await().atMost(Duration.ofSeconds(30)).until(() -> active.list().block().size() == MADE_UP);
    double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
    int filled = active.list().block().size();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.activeIn("shop") == MADE_UP);

    QueueId hot = QueueId.of("shop", "7");
    long hotStart = System.nanoTime();
    List<Visitor> crowd = new ArrayList<>();
    for (int i = 0; i < HOT_VISITORS; i++) {
      Visitor visitor = new Visitor(port);
      assertThat(visitor.json("/products/7").body()).contains("pre-queue");
      crowd.add(visitor);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> active.list().block().get(hot) == Activation.AUTO);
    double hotOnSeconds = (System.nanoTime() - hotStart) / 1e9;
    boolean hotOn = active.list().block().get(hot) == Activation.AUTO;
    assertThat(active.list().block()).hasSize(MADE_UP);
    double evicted = meters.counter("anteroom.gateway.activations.evicted", "room", "shop").count();
    assertThat(direct.zcard(keys.waiting(hot))).isEqualTo(HOT_VISITORS);
    List<String> line = direct.zrange(keys.waiting(hot), 0, -1);

    Instant start = Instant.now().plusSeconds(3);
    settings.put("shop", null, Map.of("event-start", start.toString())).block();
    List<long[]> samples = new ArrayList<>();
    boolean inOrder = true;
    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, roomPolicies, "250ms")) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        List<String> left = direct.zrange(keys.waiting(hot), 0, -1);
        long now = System.nanoTime();
        inOrder &= left.equals(line.subList(line.size() - left.size(), line.size()));
        samples.add(new long[] {now, HOT_VISITORS - left.size()});
        if (left.isEmpty()) {
          break;
        }
        Thread.sleep(20);
      }
    }
    long first = samples.stream().filter(s -> s[1] > 0).findFirst().orElseThrow()[0];
    long firstCount = samples.stream().filter(s -> s[1] > 0).findFirst().orElseThrow()[1];
    long last = samples.get(samples.size() - 1)[0];
    double span = (last - first) / 1e9;
    double rate = (HOT_VISITORS - firstCount) / span;

    assertThat(samples.get(samples.size() - 1)[1]).as("all admitted").isEqualTo(HOT_VISITORS);
    assertThat(direct.zcard(keys.running(hot))).isEqualTo(HOT_VISITORS);
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "1,000 made-up item ids, 2 visitors and a status poll each (%.0f s through the"
                + " gateway): queues of the room on",
            setupSeconds),
        filled + " (max-queues-per-room 1,000)",
        "all slots full",
        filled == MADE_UP);
    FIGURES.record(
        HOT_VISITORS + " visitors of the hot item join: its line on after",
        String.format(Locale.ROOT, "%.1f s, %.0f automatic queue evicted", hotOnSeconds, evicted),
        "on (before the slot rule: never)",
        hotOn);
    FIGURES.record(
        "at event-start: the hot line admitted in its order (every sample of the waiting line a"
            + " tail of the line before the start, sampled every 20 ms)",
        inOrder ? "in order" : "out of order",
        "in order",
        inOrder);
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "at event-start: %d admitted in the first tick (the bucket's burst of 1 s), the"
                + " other %d over %.2f s",
            firstCount,
            HOT_VISITORS - firstCount,
            span),
        String.format(Locale.ROOT, "%.2f/s (room rate %.0f/s)", rate, RATE),
        "the room's rate ± 25 %, not all at once",
        firstCount < HOT_VISITORS && Math.abs(rate - RATE) <= 0.25 * RATE);
  }
}
