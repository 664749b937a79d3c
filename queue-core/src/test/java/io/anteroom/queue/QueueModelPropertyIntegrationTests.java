package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.VisitorStatus.State;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.BeforeTry;

/**
 * Random interleavings of every queue operation, some sent twice as a reconnecting client would,
 * and joins and enqueues sent again at any later moment with the arguments they had then, against a
 * real Redis. After each step: every visitor is in exactly one of waiting, running and finished;
 * the line keeps join order; admission takes from the head, and only those who stopped polling
 * leave it from anywhere else; the cap holds; a newcomer (an id minted for one join) is admitted at
 * most once and never back in line or running once finished.
 */
class QueueModelPropertyIntegrationTests {

  static final int MAX_ACTIVE = 3;
  static final RoomPolicy POLICY =
      new RoomPolicy(
          2,
          Duration.ofSeconds(1),
          MAX_ACTIVE,
          Duration.ofSeconds(6),
          Duration.ofSeconds(4),
          2,
          Duration.ofHours(1));

  /** Ids that may come back: they join by enqueue. */
  static final List<String> VISITORS = List.of("a", "b", "c", "d", "e", "f", "g", "h");

  /** Ids minted for one join each, taken in this order by the join steps. */
  static final List<String> NEWCOMERS = List.of("n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7");

  static final List<String> EVERYONE =
      Stream.concat(VISITORS.stream(), NEWCOMERS.stream()).toList();

  static RedisServer server;
  static RedisFixture fixture;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "1");
  MutableClock clock;
  QueueStore store;
  RedisCommands<String, String> redis;

  /** The order in which visitors joined the line, most recent join counted. */
  final Map<String, Long> joinOrder = new HashMap<>();

  final Set<String> everEnqueued = new HashSet<>();

  /** Every join and enqueue sent so far, to be sent again by a later step. */
  final List<Sent> joinsSent = new ArrayList<>();

  final List<Sent> enqueuesSent = new ArrayList<>();

  /** Newcomers seen running after some step, and those seen finished. */
  final Set<String> admittedNewcomers = new HashSet<>();

  final Set<String> finishedNewcomers = new HashSet<>();

  Set<String> runningBefore = Set.of();

  /** When each visitor last joined or polled while waiting. */
  final Map<String, Long> lastSeen = new HashMap<>();

  long joins;

  @BeforeContainer
  static void startRedis() {
    server = RedisServer.start();
    fixture = RedisFixture.connect(server.uri());
  }

  @AfterContainer
  static void stopRedis() {
    fixture.close();
    server.close();
  }

  @BeforeTry
  void reset() {
    server.flushAll();
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    redis = fixture.sync();
    joinOrder.clear();
    everEnqueued.clear();
    lastSeen.clear();
    joinsSent.clear();
    enqueuesSent.clear();
    admittedNewcomers.clear();
    finishedNewcomers.clear();
    runningBefore = Set.of();
    joins = 0;
  }

  sealed interface Step
      permits Enqueue, Join, Resend, Status, Admit, Expire, Release, Touch, Wait {}

  record Enqueue(String visitor, boolean twice) implements Step {}

  /** A newcomer joins with the next id of {@link #NEWCOMERS}, if one is left. */
  record Join() implements Step {}

  /** An earlier join (or enqueue) sent again now, with the arguments it had when first sent. */
  record Resend(int pick, boolean join) implements Step {}

  /** A call as first sent: who, and the clock then. */
  record Sent(String visitor, long at) {}

  record Status(String visitor) implements Step {}

  /** Admission; sent {@code late} ms before it runs, as a worker's call re-sent later would be. */
  record Admit(boolean twice, int late) implements Step {}

  record Expire(boolean twice, int late) implements Step {}

  record Release(String visitor, boolean twice) implements Step {}

  record Touch(String visitor) implements Step {}

  record Wait(int millis) implements Step {}

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<String> visitor = Arbitraries.of(VISITORS);
    Arbitrary<String> anyone = Arbitraries.of(EVERYONE);
    Arbitrary<Boolean> twice = Arbitraries.of(false, false, true);
    Arbitrary<Integer> late =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(1, 3000)));
    Arbitrary<Step> step =
        Arbitraries.frequencyOf(
            Tuple.of(6, Combinators.combine(visitor, twice).as(Enqueue::new)),
            Tuple.of(3, Arbitraries.just(new Join())),
            Tuple.of(
                4,
                Combinators.combine(
                        Arbitraries.integers().between(0, 63), Arbitraries.of(true, false))
                    .as(Resend::new)),
            Tuple.of(3, anyone.map(Status::new)),
            Tuple.of(4, Combinators.combine(twice, late).as(Admit::new)),
            Tuple.of(2, Combinators.combine(twice, late).as(Expire::new)),
            Tuple.of(3, Combinators.combine(anyone, twice).as(Release::new)),
            Tuple.of(1, anyone.map(Touch::new)),
            Tuple.of(4, Arbitraries.integers().between(0, 3000).map(Wait::new)));
    return step.list().ofMinSize(1).ofMaxSize(60);
  }

  @Property(tries = 300)
  void everyInterleavingKeepsTheModelsPromises(@ForAll("steps") List<Step> steps) {
    for (Step step : steps) {
      apply(step);
      assertInvariants();
    }
  }

  private void apply(Step step) {
    if (step instanceof Enqueue e) {
      enqueue(e);
    } else if (step instanceof Join) {
      join();
    } else if (step instanceof Resend r) {
      resend(r);
    } else if (step instanceof Status s) {
      checkStatus(s.visitor());
    } else if (step instanceof Admit a) {
      sentBefore(a.late(), () -> admit(a.twice()));
    } else if (step instanceof Expire e) {
      sentBefore(e.late(), () -> expire(e.twice()));
    } else if (step instanceof Release r) {
      store.release(queue, r.visitor()).block();
      if (r.twice()) {
        assertThat(store.release(queue, r.visitor()).block()).isFalse();
      }
    } else if (step instanceof Touch t) {
      store.touch(queue, t.visitor()).block();
    } else if (step instanceof Wait w) {
      clock.advance(Duration.ofMillis(w.millis()));
    }
  }

  private void enqueue(Enqueue e) {
    Double left = redis.zscore(keys.finished(queue), e.visitor());
    EnqueueResult result = store.enqueue(queue, e.visitor(), POLICY).block();
    enqueuesSent.add(new Sent(e.visitor(), clock.millis()));
    everEnqueued.add(e.visitor());
    if (left != null && left >= clock.millis()) {
      // Left at this very instant: taken for a call sent before they left, which changes nothing.
      assertThat(place(e.visitor())).isEqualTo(Place.FINISHED);
      assertThat(result.added()).isFalse();
    }
    if (result.position() > 0) {
      lastSeen.put(e.visitor(), clock.millis());
    }
    if (result.position() > 0 && result.added()) {
      joinOrder.put(e.visitor(), joins++);
    }
    if (e.twice()) {
      EnqueueResult again = store.enqueue(queue, e.visitor(), POLICY).block();
      assertThat(again.admitted()).isEqualTo(result.admitted());
      assertThat(again.position()).isEqualTo(result.position());
      assertThat(again.requeued()).isFalse();
    }
  }

  private void join() {
    if (joinsSent.size() == NEWCOMERS.size()) {
      return;
    }
    String newcomer = NEWCOMERS.get(joinsSent.size());
    EnqueueResult result = store.join(queue, newcomer, POLICY).block();
    joinsSent.add(new Sent(newcomer, clock.millis()));
    assertThat(result.added()).isTrue();
    if (!result.admitted()) {
      lastSeen.put(newcomer, clock.millis());
      joinOrder.put(newcomer, joins++);
    }
  }

  /**
   * Sends an earlier join or enqueue again with the clock it was sent at, whatever happened since:
   * the visitor stays where they are, keeps their place, and no counter moves.
   */
  private void resend(Resend r) {
    List<Sent> sent = r.join() ? joinsSent : enqueuesSent;
    if (sent.isEmpty()) {
      return;
    }
    Sent call = sent.get(r.pick() % sent.size());
    String visitor = call.visitor();
    Place before = place(visitor);
    Long rank = redis.zrank(keys.waiting(queue), visitor);
    boolean unseen = redis.zscore(keys.seen(queue), visitor) == null;
    QueueCounts counts = store.counts(queue).block();
    EnqueueResult result =
        sentAt(
            call.at(),
            () ->
                r.join()
                    ? store.join(queue, visitor, POLICY).block()
                    : store.enqueue(queue, visitor, POLICY).block());

    assertThat(before).as("%s was placed by the first call", visitor).isNotEqualTo(Place.NOWHERE);
    assertThat(place(visitor)).as("%s stays where they are", visitor).isEqualTo(before);
    assertThat(result.admitted()).isEqualTo(before == Place.RUNNING);
    assertThat(result.position()).isEqualTo(rank == null ? 0 : rank + 1);
    assertThat(result.added()).isFalse();
    assertThat(result.requeued()).isFalse();
    QueueCounts after = store.counts(queue).block();
    assertThat(after.enqueued()).as("joined the line").isEqualTo(counts.enqueued());
    assertThat(after.admitted()).as("admitted").isEqualTo(counts.admitted());
    if (before == Place.WAITING && unseen) {
      // A stale entry admission trimmed comes back with the old time: still stale.
      lastSeen.put(visitor, call.at());
    }
  }

  private void sentBefore(int late, Runnable call) {
    sentAt(
        clock.millis() - late,
        () -> {
          call.run();
          return null;
        });
  }

  /**
   * Runs {@code call} with the clock at {@code at}, then puts the clock back: the arguments are
   * those of a call sent then, and run now.
   */
  private <T> T sentAt(long at, Supplier<T> call) {
    long now = clock.millis();
    clock.set(Instant.ofEpochMilli(at));
    try {
      return call.get();
    } finally {
      clock.set(Instant.ofEpochMilli(now));
    }
  }

  enum Place {
    WAITING,
    RUNNING,
    FINISHED,
    NOWHERE
  }

  private Place place(String visitor) {
    if (redis.zscore(keys.waiting(queue), visitor) != null) {
      return Place.WAITING;
    }
    if (redis.zscore(keys.running(queue), visitor) != null) {
      return Place.RUNNING;
    }
    return redis.zscore(keys.finished(queue), visitor) != null ? Place.FINISHED : Place.NOWHERE;
  }

  private void checkStatus(String visitor) {
    VisitorStatus status = store.status(queue, visitor).block();
    Long rank = redis.zrank(keys.waiting(queue), visitor);
    if (rank != null) {
      assertThat(status.state()).isEqualTo(State.WAITING);
      assertThat(status.position()).isEqualTo(rank + 1);
      lastSeen.put(visitor, clock.millis());
    } else if (redis.zscore(keys.running(queue), visitor) != null) {
      assertThat(status.state()).isEqualTo(State.ADMITTED);
    } else if (redis.zscore(keys.finished(queue), visitor) != null) {
      assertThat(status.state()).isEqualTo(State.FINISHED);
    } else {
      assertThat(status.state()).isEqualTo(State.UNKNOWN);
    }
  }

  private void admit(boolean twice) {
    List<String> lineBefore = redis.zrange(keys.waiting(queue), 0, -1);
    Map<String, Double> seenBefore = seen();
    store.admit(queue, POLICY).block();
    if (twice) {
      store.admit(queue, POLICY).block();
    }
    List<String> lineAfter = redis.zrange(keys.waiting(queue), 0, -1);
    assertThat(lineAfter)
        .as("the line keeps its order")
        .isEqualTo(lineBefore.stream().filter(lineAfter::contains).toList());
    int lastKept = lineAfter.isEmpty() ? -1 : lineBefore.indexOf(lineAfter.get(0));
    for (int i = 0; i < lineBefore.size(); i++) {
      String visitor = lineBefore.get(i);
      if (lineAfter.contains(visitor)) {
        continue;
      }
      // Missing from seen: an admission call trimmed the stale entry, so the visitor is gone.
      Double last = seenBefore.get(visitor);
      boolean abandoned = last == null || clock.millis() - last > POLICY.abandonAfter().toMillis();
      String target = abandoned ? keys.finished(queue) : keys.running(queue);
      assertThat(redis.zscore(target, visitor)).as("%s went to %s", visitor, target).isNotNull();
      if (!abandoned) {
        assertThat(i)
            .as("admission takes from the head: %s", visitor)
            .isLessThan(lastKept < 0 ? Integer.MAX_VALUE : lastKept);
      }
    }
  }

  private void expire(boolean twice) {
    store.expire(queue, POLICY).block();
    if (twice) {
      assertThat(store.expire(queue, POLICY).block().expired()).isZero();
    }
    // A session ends once idle for the idle limit, so those left were active since.
    long oldestAllowed = clock.millis() - POLICY.sessionIdleLimit().toMillis() + 1;
    for (ScoredValue<String> session : redis.zrangeWithScores(keys.running(queue), 0, -1)) {
      assertThat((long) session.getScore()).isGreaterThanOrEqualTo(oldestAllowed);
    }
  }

  private Map<String, Double> seen() {
    Map<String, Double> seen = new HashMap<>();
    redis
        .zrangeWithScores(keys.seen(queue), 0, -1)
        .forEach(s -> seen.put(s.getValue(), s.getScore()));
    return seen;
  }

  private void assertInvariants() {
    List<String> waiting = redis.zrange(keys.waiting(queue), 0, -1);
    Set<String> running = Set.copyOf(redis.zrange(keys.running(queue), 0, -1));
    Set<String> finished = Set.copyOf(redis.zrange(keys.finished(queue), 0, -1));

    Set<String> joined = new HashSet<>(everEnqueued);
    joinsSent.forEach(sent -> joined.add(sent.visitor()));
    for (String visitor : EVERYONE) {
      int places =
          (waiting.contains(visitor) ? 1 : 0)
              + (running.contains(visitor) ? 1 : 0)
              + (finished.contains(visitor) ? 1 : 0);
      assertThat(places).as("sets holding %s", visitor).isEqualTo(joined.contains(visitor) ? 1 : 0);
    }
    for (String newcomer : NEWCOMERS) {
      if (waiting.contains(newcomer) || running.contains(newcomer)) {
        assertThat(finishedNewcomers)
            .as("%s left, so stays out", newcomer)
            .doesNotContain(newcomer);
      }
      if (running.contains(newcomer) && !runningBefore.contains(newcomer)) {
        assertThat(admittedNewcomers.add(newcomer)).as("%s admitted once", newcomer).isTrue();
      }
      if (finished.contains(newcomer)) {
        finishedNewcomers.add(newcomer);
      }
    }
    runningBefore = running;
    List<Long> order = new ArrayList<>();
    waiting.forEach(visitor -> order.add(joinOrder.get(visitor)));
    assertThat(order).as("line keeps join order").isSorted();
    assertThat(running.size()).as("running within the cap").isLessThanOrEqualTo(MAX_ACTIVE);
    Map<String, Double> seen = seen();
    long oldest = clock.millis() - POLICY.abandonAfter().toMillis();
    for (String visitor : waiting) {
      long polled = lastSeen.get(visitor);
      Double last = seen.get(visitor);
      if (last == null) {
        assertThat(polled).as("%s dropped from seen only once stale", visitor).isLessThan(oldest);
      } else {
        assertThat(last.longValue()).as("%s last seen", visitor).isEqualTo(polled);
      }
    }
    assertThat(joined).as("seen holds only visitors who joined").containsAll(seen.keySet());
  }
}
