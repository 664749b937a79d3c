package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
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
 * Three admission loops, each with its own connection as separate worker processes would have,
 * admit from a room with room-wide limits: three hot items and a quiet one whose passes were given
 * while its queue was off. Together they keep the room's rate in every window, its total active
 * users at every moment, and each hot queue's share of the room's admissions by its weight.
 */
class RoomLimitsIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final String ROOM = "shop";
  static final String TICK = "100ms";
  final QueueKeys keys = new QueueKeys("wr");
  final List<QueueId> hot =
      List.of(QueueId.of(ROOM, "1"), QueueId.of(ROOM, "2"), QueueId.of(ROOM, "3"));
  final QueueId quiet = QueueId.of(ROOM, "4");
  final List<WorkerFixture> workers = new ArrayList<>();
  RedisClient client;
  StatefulRedisConnection<String, String> connection;
  RedisCommands<String, String> direct;

  @BeforeEach
  void connect() {
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    direct = connection.sync();
    direct.flushall();
  }

  @AfterEach
  void close() {
    workers.forEach(WorkerFixture::close);
    connection.close();
    client.shutdown();
  }

  /**
   * Queues that admit 1,000 a second each and hold everyone an hour; the room's values on top, so
   * the queues' caps are inherited ones the room's limits bound.
   */
  static RoomPolicy room(String... values) {
    RoomPolicy queues =
        PolicyParser.apply(
            "test",
            RoomPolicy.DEFAULTS,
            Map.of("admit-per-second", "1000", "abandon-after", "1h", "max-active", "100000"));
    Map<String, String> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      map.put(values[i], values[i + 1]);
    }
    return PolicyParser.apply("test", queues, map);
  }

  /** Fills each hot line, registers passes on the quiet item, and turns the hot queues on. */
  void arrange(int perQueue, int quietPasses, RoomPolicy policy) {
    try (RedisConnector setup =
        RedisConnector.connect(
            new RedisProperties(
                redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000))) {
      MutableClock now = new MutableClock(Instant.now());
      RedisQueueStore store = new RedisQueueStore(setup.commands(), keys, now);
      for (QueueId queue : hot) {
        Flux.range(0, perQueue)
            .flatMap(i -> store.enqueue(queue, queue.item() + "-" + i, policy), 64)
            .blockLast();
        new RedisActiveQueues(setup.commands(), keys).activate(queue, Activation.MANUAL).block();
      }
      List<String> passes = new ArrayList<>();
      for (int i = 0; i < quietPasses; i++) {
        passes.add("pass-" + i);
      }
      store.register(quiet, passes, policy).block();
    }
    for (QueueId queue : hot) {
      assertThat(direct.zcard(keys.waiting(queue)))
          .as("nobody admitted at once")
          .isEqualTo(perQueue);
    }
  }

  void startWorkers(int count, RoomPolicy policy) {
    for (int i = 0; i < count; i++) {
      workers.add(new WorkerFixture(redis.uri(), ROOM, policy, TICK));
    }
    workers.forEach(w -> w.loop.start());
  }

  long admitted(QueueId queue) {
    String value = direct.hget(keys.state(queue), "admitted");
    return value == null ? 0 : Long.parseLong(value);
  }

  @Test
  void threeLoopsKeepTheRoomsRateInEveryWindowAndShareItByWeight() {
    // 1,200 a minute is 20 a second, a bucket of 20; item 3 weighs twice the others.
    RoomPolicy policy = room("new-users-per-minute", "1200");
    direct.hset(keys.settings(ROOM), "3/weight", "2");
    arrange(400, 10, policy);

    startWorkers(3, policy);
    long start = System.nanoTime();
    await()
        .pollInterval(Duration.ofMillis(100))
        .atMost(Duration.ofSeconds(20))
        .until(() -> System.nanoTime() - start >= Duration.ofSeconds(10).toNanos());
    workers.forEach(w -> w.loop.stop());

    // Every session of the room, by the time it started: nobody touched or ended one.
    List<Long> starts =
        direct.zrangeWithScores(keys.sessions(ROOM), 0, -1).stream()
            .map(ScoredValue::getScore)
            .map(Double::longValue)
            .sorted()
            .toList();
    long span = starts.get(starts.size() - 1) - starts.get(0);
    System.out.printf(
        "ROOM RATE: %d sessions over %d ms (10 passes while off), shares %d / %d / %d%n",
        starts.size(), span, admitted(hot.get(0)), admitted(hot.get(1)), admitted(hot.get(2)));
    for (long window : new long[] {100, 250, 500, 1000, 2000, 5000}) {
      double bound = 20.0 * window / 1000 + 20;
      assertThat(mostIn(starts, window))
          .as("sessions started in any %d ms", window)
          .isLessThanOrEqualTo((long) Math.floor(bound + 1e-9));
    }
    assertThat(starts.size()).as("the rate was used").isGreaterThan(150);
    double unit = (admitted(hot.get(0)) + admitted(hot.get(1)) + admitted(hot.get(2))) / 4.0;
    assertThat((double) admitted(hot.get(0))).isCloseTo(unit, within(unit * 0.2));
    assertThat((double) admitted(hot.get(1))).isCloseTo(unit, within(unit * 0.2));
    assertThat((double) admitted(hot.get(2))).isCloseTo(2 * unit, within(2 * unit * 0.2));
    workers.forEach(w -> assertThat(w.errors()).isZero());
  }

  @Test
  void threeLoopsNeverExceedTheRoomsTotalActiveUsers() {
    // Sessions of half a second end and free places; the room holds 40, the quiet item 10 of them.
    RoomPolicy policy = room("total-active-users", "40", "session-duration", "500ms");
    arrange(2000, 10, policy);
    AtomicLong highest = new AtomicLong();
    AtomicLong samples = new AtomicLong();

    startWorkers(3, policy);
    long start = System.nanoTime();
    await()
        .pollInterval(Duration.ofMillis(5))
        .atMost(Duration.ofSeconds(15))
        .until(
            () -> {
              highest.accumulateAndGet(direct.zcard(keys.sessions(ROOM)), Math::max);
              samples.incrementAndGet();
              return System.nanoTime() - start >= Duration.ofSeconds(5).toNanos();
            });
    workers.forEach(w -> w.loop.stop());

    long admitted = hot.stream().mapToLong(this::admitted).sum();
    System.out.printf(
        "ROOM CAP: highest %d sessions in %d samples, %d admitted%n",
        highest.get(), samples.get(), admitted);
    assertThat(samples.get()).isGreaterThan(100);
    assertThat(highest.get()).isEqualTo(40);
    assertThat(admitted).as("places freed by ended sessions are reused").isGreaterThan(120);
    workers.forEach(w -> assertThat(w.errors()).isZero());
  }

  /** The most of the sorted times that fall in any window of {@code window} ms. */
  static long mostIn(List<Long> times, long window) {
    long most = 0;
    int first = 0;
    for (int last = 0; last < times.size(); last++) {
      while (times.get(last) - times.get(first) >= window) {
        first++;
      }
      most = Math.max(most, last - first + 1);
    }
    return most;
  }
}
