package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisCluster;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A coordinated {@code CLUSTER FAILOVER} of the primary holding a queue, while visitors join the
 * line and two workers admit from it: nobody is lost, nobody is admitted twice, and the line keeps
 * its order throughout.
 */
@SystemTest
class ClusterFailoverAdmissionIntegrationTests {

  static final int VISITORS = 300;
  static final int FAILOVER_AT = 100;

  /** 60 per second, bucket of 1 s, no cap in reach, nobody abandons or expires during the test. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          60,
          Duration.ofSeconds(1),
          100_000,
          Duration.ofHours(1),
          Duration.ofHours(1),
          500,
          Duration.ofHours(1));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final List<WorkerFixture> workers = new ArrayList<>();
  final List<String> violations = new CopyOnWriteArrayList<>();
  RedisCluster cluster;
  RedisProperties properties;
  RedisClusterClient observerClient;
  StatefulRedisClusterConnection<String, String> observer;

  @BeforeEach
  void start() {
    cluster = RedisCluster.start();
    properties =
        RedisProperties.cluster(
            List.of(cluster.seeds().split(",")),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            10_000);
    observerClient = RedisClusterClient.create("redis://" + cluster.seeds().split(",")[0]);
    observer = observerClient.connect();
  }

  @AfterEach
  void stop() {
    workers.forEach(WorkerFixture::close);
    observer.close();
    observerClient.shutdown();
    cluster.close();
  }

  static String visitor(int i) {
    return String.format("visitor-%04d", i);
  }

  static int index(String visitor) {
    return Integer.parseInt(visitor.substring("visitor-".length()));
  }

  @Test
  void failoverOfTheQueuesPrimaryLosesNobodyAdmitsNobodyTwiceAndKeepsTheOrder() throws Exception {
    RedisServer primary = cluster.primaryOf(keys.waiting(queue));
    RedisServer replica = cluster.replicaOf(primary);
    AtomicInteger enqueued = new AtomicInteger();
    AtomicInteger retries = new AtomicInteger();

    try (RedisConnector producer = RedisConnector.connect(properties)) {
      new RedisActiveQueues(producer.commands(), keys).activate(queue, Activation.MANUAL).block();
      for (int i = 0; i < 2; i++) {
        workers.add(new WorkerFixture(properties, queue.room(), POLICY, "100ms"));
      }
      workers.forEach(w -> w.loop.start());
      RedisQueueStore store = new RedisQueueStore(producer.commands(), keys, Clock.systemUTC());

      CompletableFuture<Void> line =
          CompletableFuture.runAsync(() -> lineUp(store, enqueued, retries));
      await().atMost(Duration.ofSeconds(30)).until(() -> enqueued.get() >= FAILOVER_AT);
      checkOrder();
      // The replica has never run the scripts: after the failover they run through the fallback
      // that sends their source.
      assertThat(
              replica.command(
                  "SCRIPT", "EXISTS", QueueScripts.ENQUEUE.sha(), QueueScripts.ADMIT.sha()))
          .isEqualTo("0\n0");
      cluster.failover(replica);
      line.get();
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () -> {
              checkOrder();
              assertThat(sync().zcard(keys.running(queue))).isEqualTo(VISITORS);
            });

    System.out.printf(
        "Cluster failover during admission: %d visitors, %d enqueue calls retried, %.0f worker"
            + " errors%n",
        VISITORS, retries.get(), workers.stream().mapToDouble(WorkerFixture::errors).sum());
    assertThat(cluster.primaryOf(keys.waiting(queue))).isSameAs(replica);
    assertThat(violations).isEmpty();
    assertThat(sync().zrange(keys.running(queue), 0, -1))
        .containsExactlyInAnyOrderElementsOf(
            IntStream.range(0, VISITORS)
                .mapToObj(ClusterFailoverAdmissionIntegrationTests::visitor)
                .toList());
    assertThat(sync().zcard(keys.waiting(queue))).isZero();
    assertThat(sync().zcard(keys.finished(queue))).isZero();
    assertThat(sync().hget(keys.state(queue), "admitted")).isEqualTo(Integer.toString(VISITORS));
  }

  /** Puts every visitor in line in turn, paced, retrying a call that failed until it succeeds. */
  void lineUp(RedisQueueStore store, AtomicInteger enqueued, AtomicInteger retries) {
    for (int i = 0; i < VISITORS; i++) {
      while (true) {
        try {
          store.enqueue(queue, visitor(i), POLICY).block();
          break;
        } catch (RuntimeException failed) {
          retries.incrementAndGet();
          pause(20);
        }
      }
      enqueued.incrementAndGet();
      if (i % 10 == 0) {
        checkOrder();
      }
      pause(8);
    }
  }

  /**
   * Everyone admitted so far came before everyone still waiting, and the line is in joining order.
   * Running is read before waiting: anyone admitted in between only moves the head further on.
   */
  void checkOrder() {
    try {
      List<String> running = sync().zrange(keys.running(queue), 0, -1);
      List<String> waiting = sync().zrange(keys.waiting(queue), 0, -1);
      int lastAdmitted = running.stream().mapToInt(v -> index(v)).max().orElse(-1);
      for (int i = 0; i < waiting.size(); i++) {
        int at = index(waiting.get(i));
        if (at <= lastAdmitted || (i > 0 && at <= index(waiting.get(i - 1)))) {
          violations.add("running up to " + lastAdmitted + ", waiting " + waiting);
          return;
        }
      }
    } catch (RuntimeException readFailedDuringFailover) {
      // The next check reads again.
    }
  }

  RedisClusterCommands<String, String> sync() {
    return observer.sync();
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
