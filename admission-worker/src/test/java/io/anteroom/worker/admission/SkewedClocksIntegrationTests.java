package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.RedisTime;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two workers whose machine clocks are two minutes ahead and two minutes behind, and visitors
 * joining and polling through a gateway whose clock is two minutes behind, all on Redis's time
 * ({@link RedisTime}) as the apps are: admission keeps its rate whichever worker ticks, nobody is
 * given up as abandoned although abandon-after (30 s) is far below the skew, and the line keeps its
 * order. On their own clocks the worker ahead would take every place the gateway wrote as four
 * minutes old.
 */
class SkewedClocksIntegrationTests {

  static final Duration SKEW = Duration.ofMinutes(2);
  static final int LINE = 60;
  static final double RATE = 10;
  static final Duration RUN = Duration.ofSeconds(3);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final RoomPolicy policy =
      new RoomPolicy(
          RATE,
          Duration.ofSeconds(1),
          10_000,
          Duration.ofMinutes(10),
          Duration.ofSeconds(30),
          500,
          Duration.ofHours(1));
  final List<AutoCloseable> open = new ArrayList<>();
  RedisConnector connector;
  RedisCommands<String, String> sync;

  @BeforeEach
  void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 100));
    sync = io.lettuce.core.RedisClient.create(redis.uri()).connect().sync();
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
    connector.close();
  }

  RedisTime onRedisTime(Duration skew) {
    RedisTime time = new RedisTime(Clock.offset(Clock.systemUTC(), skew));
    time.sync(connector.commands()).block();
    assertThat(Math.abs(time.millis() - System.currentTimeMillis())).isLessThan(200);
    return time;
  }

  @Test
  void workersAndAGatewayTwoMinutesApartKeepRateOrderAndEveryPlace() throws Exception {
    RedisQueueStore gateway =
        new RedisQueueStore(connector.commands(), keys, onRedisTime(SKEW.negated()));
    List<String> line = new ArrayList<>();
    for (int i = 0; i < LINE; i++) {
      String visitor = String.format("v%03d", i);
      gateway.enqueue(queue, visitor, policy).block();
      line.add(visitor);
    }
    sync.hset(keys.active(), queue.toString(), "manual");
    WorkerFixture ahead =
        keep(new WorkerFixture(redis.uri(), "drop", policy, "100ms", onRedisTime(SKEW)));
    WorkerFixture behind =
        keep(new WorkerFixture(redis.uri(), "drop", policy, "100ms", onRedisTime(SKEW.negated())));

    long start = System.nanoTime();
    int tick = 0;
    while (System.nanoTime() - start < RUN.toNanos()) {
      (tick++ % 2 == 0 ? ahead : behind).loop.runOnce().block();
      for (String visitor : line) {
        gateway.status(queue, visitor, policy).block();
      }
      Thread.sleep(100);
    }
    double seconds = (System.nanoTime() - start) / 1e9;

    long admitted = sync.zcard(keys.running(queue));
    String abandoned = sync.hget(keys.state(queue), "abandoned");
    System.out.printf(
        "[skewed-clocks] %d admitted in %.1f s (rate %.0f, burst %.0f), abandoned %s%n",
        admitted, seconds, RATE, RATE, abandoned);
    assertThat(abandoned).as("given up as abandoned").isNull();
    assertThat(sync.zcard(keys.finished(queue))).isZero();
    assertThat((double) admitted)
        .as("admitted: the rate kept, whichever worker ticked")
        .isBetween(0.5 * RATE * RUN.toSeconds(), RATE + RATE * seconds + 1);
    assertThat(sync.zrange(keys.running(queue), 0, -1))
        .as("the head of the line, in order")
        .containsExactlyInAnyOrderElementsOf(line.subList(0, (int) admitted));
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    open.add(closeable);
    return closeable;
  }
}
