package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisCluster;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The queue model on a real Redis Cluster of three primaries and three replicas, through the
 * connector in Cluster mode: every script and command of every store works on queues spread over
 * all three shards, and pub/sub reaches subscribers whichever node a message is published on.
 */
@SystemTest
class ClusterModeIntegrationTests {

  /** 10 per second, bucket of 10, room for 100, sessions of 1 minute, abandon after 30 s. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          100,
          Duration.ofMinutes(1),
          Duration.ofSeconds(30),
          500,
          Duration.ofMinutes(10));

  static RedisCluster cluster;
  static RedisConnector connector;

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.start();
    connector =
        RedisConnector.connect(
            RedisProperties.cluster(
                List.of(cluster.seeds().split(",")),
                Duration.ofSeconds(5),
                Duration.ofSeconds(2),
                10_000));
  }

  @AfterAll
  static void stopCluster() {
    connector.close();
    cluster.close();
  }

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
  }

  /** One queue of {@code room} on each primary, so every test covers every shard. */
  /** A queue on each primary: a room's queues share its slot, so each is of another room. */
  List<QueueId> queueOnEveryShard(String room) {
    Map<RedisServer, QueueId> byPrimary = new LinkedHashMap<>();
    for (int n = 0; byPrimary.size() < 3; n++) {
      QueueId queue = QueueId.of(room + "-" + n, "item");
      byPrimary.putIfAbsent(cluster.primaryOf(keys.waiting(queue)), queue);
    }
    return List.copyOf(byPrimary.values());
  }

  @Test
  void enqueueStatusAdmitTouchReleaseAndExpireWorkOnEveryShard() {
    RedisQueueStore store;
    for (QueueId queue : queueOnEveryShard("enqueue")) {
      clock = MutableClock.startingAt2026();
      store = new RedisQueueStore(connector.commands(), keys, clock);
      for (int i = 1; i <= 10; i++) {
        assertThat(store.enqueue(queue, "v" + i, POLICY).block().admitted()).isTrue();
      }
      for (int i = 11; i <= 30; i++) {
        assertThat(store.enqueue(queue, "v" + i, POLICY).block().position()).isEqualTo(i - 10);
      }
      assertThat(store.enqueue(queue, "v13", POLICY).block().position()).isEqualTo(3);
      assertThat(store.status(queue, "v15").block().position()).isEqualTo(5);

      clock.advance(Duration.ofSeconds(1));
      AdmitResult admitted = store.admit(queue, POLICY).block();
      assertThat(admitted.admitted()).isEqualTo(10);
      assertThat(admitted.waiting()).isEqualTo(10);
      assertThat(store.status(queue, "v20").block().state())
          .isEqualTo(VisitorStatus.State.ADMITTED);
      assertThat(store.status(queue, "v21").block().position()).isEqualTo(1);

      assertThat(store.touch(queue, "v1").block()).isTrue();
      assertThat(store.release(queue, "v2").block()).isTrue();
      assertThat(store.status(queue, "v2").block().state()).isEqualTo(VisitorStatus.State.FINISHED);
      assertThat(store.register(queue, List.of("walk-in"), POLICY).block()).isEqualTo(1);

      clock.advance(Duration.ofMinutes(2));
      assertThat(store.expire(queue, POLICY).block().expired()).isEqualTo(20);
      assertThat(store.sweep(queue, POLICY).block()).isEqualTo(10);
      assertThat(store.enqueue(queue, "late", POLICY).block().admitted()).isTrue();
      assertThat(store.clear(queue).block()).isZero();

      QueueCounts counts = store.counts(queue).block();
      assertThat(counts.admitted()).isEqualTo(21);
      assertThat(counts.released()).isEqualTo(1);
      assertThat(counts.expired()).isEqualTo(20);
      assertThat(counts.abandoned()).isEqualTo(10);
    }
  }

  @Test
  void idleLinesBeyondTheBoundAreDeletedFromTheRoomsShard() {
    RedisIdleLines idle = new RedisIdleLines(connector.commands(), keys, clock, 1);
    RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, clock);
    List<QueueId> queues =
        List.of(QueueId.of("idle", "a"), QueueId.of("idle", "b"), QueueId.of("idle", "c"));
    long deleted = 0;
    for (QueueId queue : queues) {
      store.join(queue, "v", POLICY).block();
      deleted += idle.written("idle", List.of(queue.item()), Duration.ofMinutes(10)).block();
      clock.advance(Duration.ofSeconds(1));
    }

    deleted += idle.written("idle", List.of("last"), Duration.ofMinutes(10)).block();

    assertThat(deleted).isEqualTo(3);
    for (QueueId queue : queues) {
      String[] line = {
        keys.waiting(queue),
        keys.running(queue),
        keys.finished(queue),
        keys.seen(queue),
        keys.state(queue)
      };
      assertThat(connector.commands().exists(line).toCompletableFuture().join()).isZero();
    }
  }

  @Test
  void activationSettingsHistoryAndTrafficWorkOnEveryShard() {
    ActiveQueues active = new RedisActiveQueues(connector.commands(), keys);
    SettingsStore settings = new RedisSettingsStore(connector.commands(), keys);
    RoomHistory history = new RedisRoomHistory(connector.commands(), keys, clock);
    TrafficStore traffic =
        new RedisTrafficStore(connector.commands(), keys, clock, IdleLines.UNBOUNDED, true);
    List<QueueId> queues = queueOnEveryShard("shards");
    List<TrafficStore.Hits> fives =
        queues.stream().map(q -> new TrafficStore.Hits(q, 5, POLICY)).toList();
    List<TrafficStore.Hits> twos =
        queues.stream().map(q -> new TrafficStore.Hits(q, 2, POLICY)).toList();

    // One record call for queues on every shard: one script call per slot.
    assertThat(traffic.record(fives).collectList().block())
        .extracting(TrafficStore.WindowTotal::requests)
        .containsOnly(5L)
        .hasSize(queues.size());
    assertThat(traffic.record(twos).collectList().block())
        .extracting(TrafficStore.WindowTotal::requests)
        .containsOnly(7L)
        .hasSize(queues.size());
    for (QueueId queue : queues) {
      assertThat(active.activate(queue, Activation.AUTO).block()).isTrue();
      assertThat(traffic.settled(queue, POLICY).block()).isFalse();
    }
    assertThat(active.list().block().keySet()).containsAll(queues);
    assertThat(active.deactivate(queues.get(0), Activation.AUTO).block()).isTrue();
    assertThat(active.list().block()).doesNotContainKey(queues.get(0));

    for (String room : List.of("north", "south", "east", "west")) {
      settings.change(room, null, Map.of("admit-per-second", "3"), Set.of()).block();
      settings.put(room, "7", Map.of("mode", "paused")).block();
      settings.remove(room, null, Set.of("admit-per-second")).block();
      assertThat(settings.overrides(room).block().room()).isEmpty();
      assertThat(settings.overrides(room).block().queues())
          .isEqualTo(Map.of("7", Map.of("mode", "paused")));

      assertThat(history.record(room, new HistorySample(0, 4, 3, 2, 1)).block()).isTrue();
      assertThat(history.recent(room).block())
          .extracting(HistorySample::waiting)
          .containsExactly(4L);
    }
  }

  @Test
  void subscribersHearAnnouncementsPublishedOnAnyNode() {
    List<String> heard = new CopyOnWriteArrayList<>();
    try (StatefulRedisPubSubConnection<String, String> subscriber = connector.connectPubSub()) {
      subscriber.addListener(
          new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
              heard.add(message);
            }
          });
      subscriber.sync().subscribe(keys.activeChanged());

      ActiveQueues active = new RedisActiveQueues(connector.commands(), keys);
      QueueId announced = QueueId.of("pubsub", "from-connector");
      active.activate(announced, Activation.MANUAL).block();
      List<String> expected = new ArrayList<>(List.of(announced.toString()));
      for (RedisServer node : cluster.nodes()) {
        String message = "pubsub:node-" + node.port();
        node.command("PUBLISH", keys.activeChanged(), message);
        expected.add(message);
      }

      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(heard).containsExactlyInAnyOrderElementsOf(expected));
    }
  }

  @Test
  void commandsToAFrozenPrimaryFailWithinTheTimeoutAndLatencyIsRecorded() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    QueueId queue = queueOnEveryShard("frozen").get(0);
    RedisServer primary = cluster.primaryOf(keys.waiting(queue));
    try (RedisConnector fast =
        RedisConnector.connect(
            RedisProperties.cluster(
                List.of(cluster.seeds().split(",")),
                Duration.ofMillis(300),
                Duration.ofSeconds(1),
                10_000),
            meters)) {
      RedisQueueStore store = new RedisQueueStore(fast.commands(), keys, clock);
      store.enqueue(queue, "before", POLICY).block();
      assertThat(meters.find("lettuce.command.completion").timers()).isNotEmpty();

      primary.pause();
      try {
        assertThatThrownBy(
                () -> store.enqueue(queue, "frozen", POLICY).block(Duration.ofSeconds(5)))
            .isInstanceOf(RedisCommandTimeoutException.class);
      } finally {
        primary.resume();
      }
    }
  }

  @Test
  void scriptsRunAgainAfterEveryNodeForgotThem() {
    RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, clock);
    List<QueueId> queues = queueOnEveryShard("noscript");
    queues.forEach(q -> store.enqueue(q, "before", POLICY).block());

    for (RedisServer node : cluster.nodes()) {
      node.command("SCRIPT", "FLUSH");
    }

    for (QueueId queue : queues) {
      assertThat(store.enqueue(queue, "after", POLICY).block().added()).isTrue();
      assertThat(store.status(queue, "after").block().state())
          .isEqualTo(VisitorStatus.State.ADMITTED);
    }
  }
}
