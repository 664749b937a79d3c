package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lottery and the pre-queue of a scheduled event, against a real Redis: the order in which the
 * line admits is a uniform shuffle of those who drew, and first-come newcomers follow them.
 *
 * <p>The shuffle test runs {@value #TRIALS} lines of {@value #N} arrivals each, admits each line
 * one at a time from its head, and counts how often arrival i left at place p. For a uniform
 * shuffle each of the N x N counts is about TRIALS / N; Pearson's statistic over the table then
 * follows a chi-square distribution with (N - 1)^2 = 16 degrees of freedom, which exceeds {@value
 * #CRITICAL} with probability 3.6e-6 (a false failure). A first-come line scores 20,000.
 */
class FairQueueingIntegrationTests {

  static final int N = 5;
  static final int TRIALS = 1000;
  static final double CRITICAL = 55.0;

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;
  QueueStore store;

  @BeforeEach
  void setUp() {
    sync.flushall();
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  static RoomPolicy base() {
    return PolicyParser.apply(
        "test",
        RoomPolicy.DEFAULTS,
        Map.of("admit-per-second", "1000", "admit-batch", "1", "abandon-after", "1h"));
  }

  /** Empties the queue's bucket so that every newcomer waits. */
  void drain(QueueId queue) {
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
  }

  /** Admits the whole line one visitor per call, and gives the order they left in. */
  List<String> admitAll(QueueId queue, RoomPolicy policy) {
    List<String> order = new ArrayList<>();
    while (sync.zcard(keys.waiting(queue)) > 0) {
      clock.advance(Duration.ofMillis(1));
      assertThat(store.admit(queue, policy).block().admitted()).isEqualTo(1);
      List<String> running = sync.zrange(keys.running(queue), 0, -1);
      running.stream().filter(v -> !order.contains(v)).forEach(order::add);
    }
    return order;
  }

  /**
   * Counts, over {@value #TRIALS} lines of {@value #N} arrivals under {@code policy}, how often
   * arrival i was admitted at place p.
   */
  long[][] placesByArrival(RoomPolicy joining, RoomPolicy admitting) {
    long[][] counts = new long[N][N];
    for (int t = 0; t < TRIALS; t++) {
      QueueId queue = QueueId.of("shop", "t" + t);
      drain(queue);
      for (int i = 0; i < N; i++) {
        assertThat(store.enqueue(queue, "a" + i, joining).block().admitted()).isFalse();
      }
      List<String> order = admitAll(queue, admitting);
      for (int p = 0; p < N; p++) {
        counts[Integer.parseInt(order.get(p).substring(1))][p]++;
      }
    }
    return counts;
  }

  static double chiSquare(long[][] counts) {
    double expected = (double) TRIALS / N;
    double sum = 0;
    for (long[] row : counts) {
      for (long observed : row) {
        sum += (observed - expected) * (observed - expected) / expected;
      }
    }
    return sum;
  }

  @Test
  void randomQueueingAdmitsInAUniformlyShuffledOrder() {
    RoomPolicy lottery = PolicyParser.apply("test", base(), Map.of("queueing", "random"));

    double statistic = chiSquare(placesByArrival(lottery, lottery));

    assertThat(statistic).isLessThan(CRITICAL);
  }

  @Test
  void firstComeQueueingFailsTheShuffleTest() {
    RoomPolicy fifo = base();

    double statistic = chiSquare(placesByArrival(fifo, fifo));

    assertThat(statistic).isGreaterThan(CRITICAL);
  }

  @Test
  void preQueueShufflesEveryonePresentAtTheStartUniformly() {
    Instant start = clock.instant().plus(Duration.ofMinutes(10));
    RoomPolicy event =
        PolicyParser.apply(
            "test", base(), Map.of("event-start", start.toString(), "pre-queue-opens", "30m"));

    long[][] counts = placesByArrival(event, event);

    assertThat(chiSquare(counts)).isLessThan(CRITICAL);
  }

  @Test
  void laterArrivalsQueueFirstComeBehindThePreQueue() {
    Instant start = clock.instant().plus(Duration.ofMinutes(10));
    RoomPolicy event =
        PolicyParser.apply(
            "test", base(), Map.of("event-start", start.toString(), "pre-queue-opens", "30m"));
    QueueId queue = QueueId.of("shop", "drop");
    List<String> early = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      early.add("p" + i);
      store.enqueue(queue, "p" + i, event).block();
      clock.advance(Duration.ofSeconds(1));
    }
    clock.set(start.plusSeconds(1));
    drain(queue);
    List<String> late = List.of("l0", "l1", "l2", "l3", "l4");
    for (String visitor : late) {
      assertThat(store.enqueue(queue, visitor, event).block().position()).isGreaterThan(20);
    }

    List<String> order = admitAll(queue, event);

    assertThat(new HashSet<>(order.subList(0, 20))).isEqualTo(new HashSet<>(early));
    assertThat(order.subList(0, 20)).isNotEqualTo(early);
    assertThat(order.subList(20, 25)).isEqualTo(late);
  }

  @Test
  void duringThePreQueueNobodyGoesStraightInEvenToAnEmptyLine() {
    Instant start = clock.instant().plus(Duration.ofMinutes(10));
    RoomPolicy event = PolicyParser.apply("test", base(), Map.of("event-start", start.toString()));
    QueueId queue = QueueId.of("shop", "early");

    EnqueueResult first = store.enqueue(queue, "v1", event).block();

    assertThat(first.admitted()).isFalse();
    assertThat(first.position()).isEqualTo(1);
    clock.set(start);
    assertThat(store.enqueue(queue, "v2", event).block().position()).isEqualTo(2);
  }

  @Test
  void aRandomPlaceKeepsSeenAndStatusRanksAndIsKeptOnReentry() {
    RoomPolicy lottery = PolicyParser.apply("test", base(), Map.of("queueing", "random"));
    QueueId queue = QueueId.of("shop", "ranks");
    drain(queue);
    for (int i = 0; i < 10; i++) {
      store.enqueue(queue, "v" + i, lottery).block();
    }
    List<String> line = sync.zrange(keys.waiting(queue), 0, -1);

    for (int rank = 0; rank < line.size(); rank++) {
      String visitor = line.get(rank);
      assertThat(store.status(queue, visitor).block().position()).isEqualTo(rank + 1);
      assertThat(store.enqueue(queue, visitor, lottery).block().position()).isEqualTo(rank + 1);
    }
    assertThat(sync.zcard(keys.seen(queue))).isEqualTo(10);
    assertThat(store.counts(queue).block().enqueued()).isEqualTo(10);
  }

  @Test
  void joiningWithADrawTakesARandomPlaceAndAgainKeepsIt() {
    RoomPolicy lottery = PolicyParser.apply("test", base(), Map.of("queueing", "random"));
    QueueId queue = QueueId.of("shop", "join");
    drain(queue);
    for (int i = 0; i < 10; i++) {
      store.join(queue, "v" + i, lottery).block();
    }
    List<String> line = sync.zrange(keys.waiting(queue), 0, -1);

    for (int rank = 0; rank < line.size(); rank++) {
      EnqueueResult again = store.join(queue, line.get(rank), lottery).block();
      assertThat(again.position()).isEqualTo(rank + 1);
      assertThat(again.added()).isFalse();
    }
    assertThat(sync.zrange(keys.waiting(queue), 0, -1)).isEqualTo(line);
    assertThat(sync.zcard(keys.seen(queue))).isEqualTo(10);
    assertThat(store.counts(queue).block().enqueued()).isEqualTo(10);
  }

  @Test
  void switchingToRandomDrawsBehindThoseAlreadyInLineAndBackAgainQueuesBehindTheDraw() {
    QueueId queue = QueueId.of("shop", "switch");
    RoomPolicy fifo = base();
    RoomPolicy lottery = PolicyParser.apply("test", base(), Map.of("queueing", "random"));
    drain(queue);
    store.enqueue(queue, "f1", fifo).block();
    store.enqueue(queue, "f2", fifo).block();
    for (int i = 0; i < 10; i++) {
      store.enqueue(queue, "r" + i, lottery).block();
    }
    store.enqueue(queue, "f3", fifo).block();

    List<String> order = admitAll(queue, fifo);

    assertThat(order.subList(0, 2)).containsExactly("f1", "f2");
    assertThat(order.subList(2, 12)).allMatch(v -> v.startsWith("r"));
    assertThat(order.get(12)).isEqualTo("f3");
  }
}
