package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many threads joining one line at once get exact, gapless places and leave in that order. */
class ConcurrentEnqueueIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();

  static final int THREADS = 8;
  static final int VISITORS = 10_000;
  static final RoomPolicy POLICY =
      new RoomPolicy(
          1000,
          Duration.ofSeconds(1),
          VISITORS,
          Duration.ofHours(1),
          Duration.ofHours(1),
          100,
          Duration.ofHours(1));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("drop", "sneaker-1");
  final MutableClock clock = MutableClock.startingAt2026();

  @Test
  void tenThousandVisitorsFromEightThreadsGetGaplessPlacesAndLeaveInThatOrder() throws Exception {
    QueueStore store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    // An empty bucket and a clock that stands still: nobody goes straight in.
    fixture.sync().hset(keys.state(queue), Map.of("tokens", "0", "refill", "" + clock.millis()));

    Map<String, Long> positions = enqueueConcurrently(store, allVisitors(), true);

    assertThat(positions).hasSize(VISITORS);
    assertThat(new HashSet<>(positions.values()))
        .containsExactlyInAnyOrderElementsOf(
            IntStream.rangeClosed(1, VISITORS).mapToObj(i -> (long) i).toList());

    List<String> byPosition =
        positions.entrySet().stream()
            .sorted(Map.Entry.comparingByValue())
            .map(Map.Entry::getKey)
            .toList();
    List<Set<String>> batches = admitAllInBatchesOf100(store);
    for (int b = 0; b < batches.size(); b++) {
      assertThat(batches.get(b))
          .as("batch %d holds places %d to %d", b, b * 100 + 1, b * 100 + 100)
          .isEqualTo(Set.copyOf(byPosition.subList(b * 100, b * 100 + 100)));
    }
  }

  @Test
  void reEnqueueFromManyThreadsKeepsEveryPlace() throws Exception {
    QueueStore store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    fixture.sync().hset(keys.state(queue), Map.of("tokens", "0", "refill", "" + clock.millis()));
    List<String> visitors = allVisitors().subList(0, 2000);
    Map<String, Long> first = enqueueConcurrently(store, visitors, true);
    List<String> shuffled = new ArrayList<>(visitors);
    Collections.shuffle(shuffled);

    Map<String, Long> again = enqueueConcurrently(store, shuffled, false);

    assertThat(again).isEqualTo(first);
    assertThat(store.counts(queue).block().waiting()).isEqualTo(2000);
  }

  private static List<String> allVisitors() {
    return IntStream.range(0, VISITORS).mapToObj(i -> "visitor-" + i).toList();
  }

  /** Each of eight threads takes every eighth visitor and enqueues them one by one. */
  private Map<String, Long> enqueueConcurrently(
      QueueStore store, List<String> visitors, boolean newcomers) throws Exception {
    Map<String, Long> positions = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Callable<Void>> tasks = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int offset = t;
        tasks.add(
            () -> {
              long previous = 0;
              for (int i = offset; i < visitors.size(); i += THREADS) {
                EnqueueResult result = store.enqueue(queue, visitors.get(i), POLICY).block();
                assertThat(result.admitted()).isFalse();
                if (newcomers) {
                  // One thread's own joins are ordered, so its places must rise.
                  assertThat(result.position()).isGreaterThan(previous);
                }
                previous = result.position();
                positions.put(visitors.get(i), result.position());
              }
              return null;
            });
      }
      for (Future<Void> done : pool.invokeAll(tasks)) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return positions;
  }

  /** Admits 100 at a time (the batch limit) and returns who came in with each call. */
  private List<Set<String>> admitAllInBatchesOf100(QueueStore store) {
    List<Set<String>> batches = new ArrayList<>();
    Set<String> before = Set.of();
    for (int b = 0; b < VISITORS / 100; b++) {
      clock.advance(Duration.ofMillis(100));
      assertThat(store.admit(queue, POLICY).block().admitted()).isEqualTo(100);
      Set<String> running = Set.copyOf(fixture.sync().zrange(keys.running(queue), 0, -1));
      Set<String> batch = new HashSet<>(running);
      batch.removeAll(before);
      batches.add(batch);
      before = running;
    }
    assertThat(fixture.sync().zcard(keys.waiting(queue))).isZero();
    return batches;
  }
}
