package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * Several admission loops, each with its own connection as separate worker processes would have,
 * share one queue: together they keep the configured rate and the cap.
 */
@SystemTest
class AdmissionLoopIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();

  static final String TICK = "250ms";
  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker");
  final List<WorkerFixture> workers = new ArrayList<>();
  RedisClient client;
  StatefulRedisConnection<String, String> connection;
  RedisCommands<String, String> direct;

  @BeforeEach
  void connect() {
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    direct = connection.sync();
  }

  @AfterEach
  void close() {
    workers.forEach(WorkerFixture::close);
    connection.close();
    client.shutdown();
  }

  static RoomPolicy policy(double rate, String burst, int maxActive, Duration session) {
    return policy(rate, burst, maxActive, session, 500);
  }

  static RoomPolicy policy(double rate, String burst, int maxActive, Duration session, int batch) {
    return new RoomPolicy(
        rate,
        io.anteroom.queue.policy.Durations.parse(burst),
        maxActive,
        session,
        Duration.ofHours(1),
        batch,
        Duration.ofHours(1));
  }

  /** Puts {@code count} visitors in line with an empty bucket, and turns the queue on. */
  void fillLine(int count, RoomPolicy policy) {
    try (RedisConnector setup =
        RedisConnector.connect(
            new RedisProperties(
                redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000))) {
      // An empty bucket and a clock standing still while the line fills (a clock moved by hand, so
      // the scripts take it as it is): nobody goes straight in.
      MutableClock now = new MutableClock(Instant.now());
      direct.hset(keys.state(queue), Map.of("tokens", "0", "refill", "" + now.millis()));
      RedisQueueStore store = new RedisQueueStore(setup.commands(), keys, now);
      Flux.range(0, count)
          .flatMap(i -> store.enqueue(queue, "visitor-" + i, policy), 64)
          .blockLast();
      new RedisActiveQueues(setup.commands(), keys).activate(queue, Activation.MANUAL).block();
    }
    assertThat(direct.zcard(keys.waiting(queue))).isEqualTo(count);
  }

  long admitted() {
    String value = direct.hget(keys.state(queue), "admitted");
    return value == null ? 0 : Long.parseLong(value);
  }

  void createWorkers(int count, RoomPolicy policy) {
    for (int i = 0; i < count; i++) {
      workers.add(new WorkerFixture(redis.uri(), queue.room(), policy, TICK));
    }
  }

  void startWorkers() {
    workers.forEach(w -> w.loop.start());
  }

  void stopWorkers() {
    workers.forEach(w -> w.loop.stop());
  }

  @Test
  void threeLoopsTogetherAdmitAtTheConfiguredRate() {
    // A burst of 250ms at 200/s is 50 tokens: one tick's worth.
    RoomPolicy policy = policy(200, "250ms", 100_000, Duration.ofHours(1));
    fillLine(5000, policy);

    createWorkers(3, policy);
    long start = System.nanoTime();
    startWorkers();
    await()
        .pollInterval(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(15))
        .until(() -> System.nanoTime() - start >= Duration.ofSeconds(10).toNanos());
    stopWorkers();
    double seconds = (System.nanoTime() - start) / 1e9;

    // Never more than the bucket allows (rate x elapsed + burst); never behind by more than the
    // last tick, plus 10 for the start and stop of the loops on a busy machine.
    assertThat((double) admitted()).isCloseTo(200 * seconds, within(60.0));
    assertThat(admitted()).isLessThanOrEqualTo((long) (200 * seconds + 50));
  }

  @Test
  void batchesSmallerThanATicksWorthStillKeepTheRate() {
    // 1000 per second is 250 per tick; batches of 50 take five calls per tick.
    RoomPolicy policy = policy(1000, "250ms", 100_000, Duration.ofHours(1), 50);
    fillLine(8000, policy);
    createWorkers(1, policy);

    long start = System.nanoTime();
    startWorkers();
    await()
        .pollInterval(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(10))
        .until(() -> System.nanoTime() - start >= Duration.ofSeconds(4).toNanos());
    stopWorkers();
    double seconds = (System.nanoTime() - start) / 1e9;

    assertThat((double) admitted()).isCloseTo(1000 * seconds, within(300.0));
  }

  @Test
  void threeLoopsTogetherNeverExceedTheCap() {
    // Fast admission against a cap of 40, with half-second sessions ending and freeing slots.
    RoomPolicy policy = policy(400, "250ms", 40, Duration.ofMillis(500));
    fillLine(3000, policy);
    AtomicLong highest = new AtomicLong();
    AtomicLong samples = new AtomicLong();

    createWorkers(3, policy);
    long start = System.nanoTime();
    startWorkers();
    await()
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              highest.accumulateAndGet(direct.zcard(keys.running(queue)), Math::max);
              samples.incrementAndGet();
              return System.nanoTime() - start >= Duration.ofSeconds(5).toNanos();
            });
    stopWorkers();

    assertThat(samples.get()).isGreaterThan(100);
    assertThat(highest.get()).isEqualTo(40);
    assertThat(admitted()).as("slots freed by expiry are reused").isGreaterThan(120);
  }

  @Test
  void loopSurvivesARedisRestartAndResumesAtTheRate() {
    RoomPolicy policy = policy(100, "250ms", 100_000, Duration.ofHours(1));
    fillLine(3000, policy);
    createWorkers(1, policy);
    startWorkers();
    WorkerFixture worker = workers.get(0);
    await().atMost(Duration.ofSeconds(5)).until(() -> admitted() >= 100);

    redis.server().kill();
    await().atMost(Duration.ofSeconds(5)).until(() -> worker.errors() >= 3);
    redis.server().restart();
    connection.close();
    connection = client.connect();
    direct = connection.sync();

    long resumedFrom = admitted();
    await().atMost(Duration.ofSeconds(10)).until(() -> admitted() > resumedFrom + 25);
    long from = admitted();
    long start = System.nanoTime();
    await()
        .pollInterval(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(10))
        .until(() -> System.nanoTime() - start >= Duration.ofSeconds(3).toNanos());
    long admittedInWindow = admitted() - from;
    double seconds = (System.nanoTime() - start) / 1e9;

    assertThat((double) admittedInWindow).isCloseTo(100 * seconds, within(25.0 + 10));
  }
}
