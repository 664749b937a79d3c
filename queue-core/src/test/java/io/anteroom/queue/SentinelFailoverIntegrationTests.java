package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisSentinelGroup;
import io.anteroom.testing.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A Sentinel failover in the middle of a stream of enqueues, through a connector given the group's
 * {@code redis-sentinel://} URI with the apps' own timeouts: enqueues fail fast while there is no
 * primary and resume through the promoted replica without a restart. Replication is asynchronous,
 * so enqueues acknowledged just before the primary died may be missing on the new one: the test
 * counts them and writes the count to {@code target/sentinel-failover.txt}, and asserts only what
 * is guaranteed.
 */
@SystemTest
class SentinelFailoverIntegrationTests {

  static final int BEFORE_FAILOVER = 300;
  static final int AFTER_FAILOVER = 200;
  static final int AFTER_SETTLED = 50;
  static final Duration DEADLINE = Duration.ofSeconds(90);
  static final Duration MIN_REPLICAS_HORIZON = Duration.ofSeconds(2);
  static final List<String> report = new ArrayList<>();

  /** 10 per second with a bucket of 1 s: the first 10 go straight in, the rest wait. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          100_000,
          Duration.ofHours(1),
          Duration.ofHours(1),
          500,
          Duration.ofHours(1));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");

  @AfterAll
  static void writeReport() throws IOException {
    Path file = Path.of("target", "sentinel-failover.txt");
    Files.createDirectories(file.getParent());
    Files.write(file, report);
  }

  @Test
  void enqueuesResumeThroughThePromotedReplicaAfterThePrimaryIsKilled() {
    survive("primary killed (SIGKILL)", false, group -> group.primary().kill());
  }

  @Test
  void enqueuesResumeAfterAnOperatorFailover() {
    survive("SENTINEL FAILOVER", false, SentinelFailoverIntegrationTests::operatorFailover);
  }

  @Test
  void minReplicasToWriteBoundsWhatAnOperatorFailoverLosesToTheReplicasLag() {
    survive(
        "SENTINEL FAILOVER with min-replicas-to-write 1, min-replicas-max-lag 1",
        true,
        SentinelFailoverIntegrationTests::operatorFailover);
  }

  @Test
  void writesMoveToThePromotedReplicaWhileTheFormerPrimaryIsStillUp() {
    try (RedisSentinelGroup group = RedisSentinelGroup.start();
        RedisConnector connector =
            RedisConnector.connect(
                new RedisProperties(
                    group.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 10_000))) {
      RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
      RedisServer former = group.primary();
      Stream stream = new Stream(store);
      stream.enqueue(10);
      // The replica has never run the scripts: on it they run through the fallback that sends
      // their source.
      assertThat(group.servers().get(1).command("SCRIPT", "EXISTS", QueueScripts.ENQUEUE.sha()))
          .isEqualTo("0");

      operatorFailover(group);
      RedisServer promoted = group.awaitFailoverFrom(former, Duration.ofSeconds(30));

      // Without following the Sentinels' announcement, the connection would stay on the former
      // primary, which keeps its role and takes writes until the Sentinels demote it, about ten
      // seconds after they announced the switch.
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .pollDelay(Duration.ZERO)
          .until(
              () -> {
                stream.enqueue(1);
                String last = stream.acknowledged.get(stream.acknowledged.size() - 1);
                return members(promoted, keys.waiting(queue)).contains(last)
                    || members(promoted, keys.running(queue)).contains(last);
              });
      assertThat(former.command("ROLE")).startsWith("master\n");
    }
  }

  static void operatorFailover(RedisSentinelGroup group) {
    group.sentinels().get(0).command("SENTINEL", "FAILOVER", RedisSentinelGroup.MASTER_NAME);
  }

  void survive(String failover, boolean minReplicas, Consumer<RedisSentinelGroup> trigger) {
    try (RedisSentinelGroup group = RedisSentinelGroup.start();
        RedisConnector connector =
            RedisConnector.connect(
                new RedisProperties(
                    group.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 10_000))) {
      if (minReplicas) {
        for (RedisServer server : group.servers()) {
          server.command("CONFIG", "SET", "min-replicas-to-write", "1");
          server.command("CONFIG", "SET", "min-replicas-max-lag", "1");
        }
      }
      RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
      RedisServer former = group.primary();
      Stream stream = new Stream(store);

      stream.enqueue(BEFORE_FAILOVER);
      stream.failedAt = System.nanoTime();
      trigger.accept(group);
      stream.enqueue(AFTER_FAILOVER);
      RedisServer promoted = group.awaitFailoverFrom(former, Duration.ofSeconds(30));
      if (former.isRunning()) {
        Awaitility.await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> former.command("ROLE").startsWith("slave\n"));
      }
      int settled = stream.acknowledged.size();
      stream.enqueue(AFTER_SETTLED);

      List<String> waiting = members(promoted, keys.waiting(queue));
      List<String> running = members(promoted, keys.running(queue));
      Set<String> present = new HashSet<>(waiting);
      present.addAll(running);
      List<String> lost = stream.acknowledged.stream().filter(v -> !present.contains(v)).toList();
      String line =
          String.format(
              "%s: %d enqueues acknowledged, %d of them lost, %d rejected; enqueues failed or were"
                  + " lost for %d ms after the failover began",
              failover,
              stream.acknowledged.size(),
              lost.size(),
              stream.rejected,
              stream.disruptedMillis(lost));
      System.out.println(line);
      report.add(line);

      assertThat(promoted).isNotSameAs(former);
      assertThat(waiting.size() + running.size()).as("nobody twice").isEqualTo(present.size());
      assertThat(stream.attempted).as("nobody who never joined").containsAll(present);
      assertThat(present)
          .as("everything acknowledged once the failover settled is kept")
          .containsAll(stream.acknowledged.subList(settled, stream.acknowledged.size()));
      List<String> inOrder = new ArrayList<>(waiting);
      inOrder.sort(null);
      assertThat(waiting).as("the line keeps its order").isEqualTo(inOrder);
      if (minReplicas) {
        // The primary takes a write only while a replica acknowledged within the last second
        // (min-replicas-max-lag 1; replicas acknowledge once a second): what the promoted replica
        // lacks was acknowledged at most about two seconds before the failover began, or after.
        long horizon = stream.failedAt - MIN_REPLICAS_HORIZON.toNanos();
        assertThat(lost)
            .as("lost only what was acknowledged within the replicas' lag of the failover")
            .allMatch(visitor -> stream.acknowledgedAt.get(visitor) >= horizon);
      }
    }
  }

  static List<String> members(RedisServer server, String key) {
    String reply = server.command("ZRANGE", key, "0", "-1");
    return reply.isEmpty() ? List.of() : List.of(reply.split("\n"));
  }

  /** Visitors enqueued one after another, each tried once, as a stream of arrivals would be. */
  final class Stream {

    final RedisQueueStore store;
    final List<String> acknowledged = new ArrayList<>();
    final Map<String, Long> acknowledgedAt = new HashMap<>();
    final Set<String> attempted = new HashSet<>();
    long failedAt;
    long lastRejectedAt;
    int rejected;
    int next;

    Stream(RedisQueueStore store) {
      this.store = store;
    }

    /** Enqueues until {@code count} more are acknowledged, failing the test past the deadline. */
    void enqueue(int count) {
      int target = acknowledged.size() + count;
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (acknowledged.size() < target) {
        assertThat(System.nanoTime()).as("enqueues resume in time").isLessThan(deadline);
        String visitor = String.format("visitor-%06d", next++);
        attempted.add(visitor);
        try {
          store.enqueue(queue, visitor, POLICY).block();
          acknowledged.add(visitor);
          acknowledgedAt.put(visitor, System.nanoTime());
        } catch (RuntimeException failed) {
          rejected++;
          lastRejectedAt = System.nanoTime();
        }
        pause();
      }
    }

    /**
     * From the failover's start to the last enqueue that failed or whose acknowledgement was lost.
     */
    long disruptedMillis(List<String> lost) {
      long last = Math.max(lastRejectedAt, failedAt);
      for (String visitor : lost) {
        last = Math.max(last, acknowledgedAt.get(visitor));
      }
      return (last - failedAt) / 1_000_000;
    }

    private void pause() {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
