package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every branch of reenter.lua, and the scripts that read the line's scores meeting a place at the
 * front, against a real Redis with a clock moved by hand.
 */
class ReentryIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");
  MutableClock clock;
  QueueStore store;

  /** 10 per second, room for 100, abandon after 30 s, back to the front at most twice. */
  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "admit-per-second", "10",
              "admit-burst", "1s",
              "max-active", "100",
              "session-duration", "1m",
              "abandon-after", "30s",
              "finished-retention", "10m",
              "reentry-max", "2"));

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  /** Lets {@code visitor} in at once (the line is empty and the bucket full); when it happened. */
  Instant admittedAtOnce(String visitor) {
    assertThat(store.enqueue(queue, visitor, POLICY).block().admitted()).isTrue();
    return clock.instant();
  }

  /** Puts {@code visitor} in line behind everyone, the bucket emptied first. */
  void waits(String visitor) {
    drainBucket();
    assertThat(store.enqueue(queue, visitor, POLICY).block().admitted()).isFalse();
  }

  void drainBucket() {
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
  }

  Reentered reenter(String visitor, Instant admitted) {
    return store.reenter(queue, visitor, admitted, POLICY, List.of()).block();
  }

  List<String> waiting() {
    return sync.zrange(keys.waiting(queue), 0, -1);
  }

  List<String> running() {
    return sync.zrange(keys.running(queue), 0, -1);
  }

  long times(String visitor) {
    String count = sync.hget(keys.reentries(queue), visitor);
    return count == null ? 0 : Long.parseLong(count);
  }

  /** Admits one visitor from the head of the line, the bucket having refilled. */
  void admitOne() {
    clock.advance(Duration.ofSeconds(1));
    RoomPolicy one = PolicyParser.apply("test", POLICY, Map.of("admit-batch", "1"));
    assertThat(store.admit(queue, one).block().admitted()).isEqualTo(1);
  }

  @Test
  void reenterWhenRunningThenGoesBeforeEveryoneWaitingAndFreesTheSlot() {
    Instant admitted = admittedAtOnce("failed");
    waits("first");
    waits("second");
    clock.advance(Duration.ofSeconds(2));

    Reentered result = reenter("failed", admitted);

    assertThat(result).isEqualTo(Reentered.FRONT);
    assertThat(result.waiting()).isTrue();
    assertThat(waiting()).containsExactly("failed", "first", "second");
    assertThat(running()).isEmpty();
    assertThat(sync.zcard(keys.sessions("shop"))).isZero();
    assertThat(sync.zscore(keys.seen(queue), "failed")).isEqualTo((double) clock.millis());
    assertThat(times("failed")).isEqualTo(1);
    assertThat(sync.hget(keys.state(queue), "reentered")).isEqualTo("1");
    assertThat(store.status(queue, "failed").block().position()).isEqualTo(1);
  }

  @Test
  void reentrantsKeepTheOrderTheyWereFirstAdmittedIn() {
    Instant a = admittedAtOnce("a");
    clock.advance(Duration.ofMillis(1));
    Instant b = admittedAtOnce("b");
    clock.advance(Duration.ofMillis(1));
    Instant c = admittedAtOnce("c");
    waits("waiting");
    clock.advance(Duration.ofSeconds(1));

    reenter("c", c);
    reenter("a", a);
    reenter("b", b);

    assertThat(waiting()).containsExactly("a", "b", "c", "waiting");
  }

  @Test
  void reentrantsGoBeforeThoseWhoRejoinedAfterAnEmptyStoreAndBeforeNewcomers() {
    RedisActiveQueues active = queueOn();
    Instant oldJoined = clock.instant();
    Instant admitted = admittedAtOnce("holder");
    clock.advance(Duration.ofSeconds(5));
    storeComesBackEmpty(active);
    // The holder's pass takes the session back, and someone from the old line rejoins ahead.
    assertThat(store.touch(queue, "holder", admitted, RoomPolicy.DEFAULTS).block()).isTrue();
    waits("newcomer");
    assertThat(store.enqueue(queue, "rejoiner", oldJoined, POLICY).block().added()).isFalse();
    assertThat(waiting()).containsExactly("rejoiner", "newcomer");

    reenter("holder", admitted);

    assertThat(waiting()).containsExactly("holder", "rejoiner", "newcomer");
  }

  @Test
  void aNewcomerWhoDrawsARandomPlaceStaysBehindTheReentrants() {
    RoomPolicy lottery = PolicyParser.apply("test", POLICY, Map.of("queueing", "random"));
    Instant admitted = admittedAtOnce("failed");
    waits("first");
    reenter("failed", admitted);

    for (int i = 0; i < 20; i++) {
      assertThat(store.enqueue(queue, "drew" + i, lottery).block().admitted()).isFalse();
    }

    assertThat(waiting().get(0)).isEqualTo("failed");
    assertThat(waiting()).hasSize(22);
  }

  @Test
  void statusSaysTheReentrantWaitsAtTheFrontAndNobodyElse() {
    Instant admitted = admittedAtOnce("failed");
    waits("other");
    reenter("failed", admitted);

    VisitorStatus front = store.status(queue, "failed").block();
    VisitorStatus other = store.status(queue, "other").block();

    assertThat(front.front()).isTrue();
    assertThat(front.state()).isEqualTo(VisitorStatus.State.WAITING);
    assertThat(other.front()).isFalse();
    assertThat(other.position()).isEqualTo(2);
  }

  @Test
  void theReentrantIsAdmittedFirstAndOnlyAsTheRateAllows() {
    Instant admitted = admittedAtOnce("failed");
    waits("first");
    reenter("failed", admitted);
    drainBucket();

    assertThat(store.admit(queue, POLICY).block().admitted()).isZero();
    admitOne();

    assertThat(running()).containsExactly("failed");
    assertThat(store.status(queue, "failed").block().state())
        .isEqualTo(VisitorStatus.State.ADMITTED);
    assertThat(waiting()).containsExactly("first");
  }

  @Test
  void inARoomWithLimitsTheReentrantFreesTheRoomsSlotAndTakesItBackFirst() {
    RoomPolicy room = PolicyParser.apply("test", POLICY, Map.of("total-active-users", "2"));
    RoomStore rooms = new RedisRoomStore(fixture.connector().commands(), keys, clock);
    for (String visitor : List.of("a", "b", "c")) {
      assertThat(store.enqueue(queue, visitor, room).block().admitted()).isFalse();
    }
    assertThat(rooms.admit("shop", room, Map.of(queue, room)).block().admitted()).isEqualTo(2);
    Instant admitted = clock.instant();

    assertThat(store.reenter(queue, "a", admitted, room, List.of()).block())
        .isEqualTo(Reentered.FRONT);
    assertThat(sync.zcard(keys.sessions("shop"))).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    RoomAdmitResult again = rooms.admit("shop", room, Map.of(queue, room)).block();

    assertThat(again.admitted()).isEqualTo(1);
    assertThat(running()).containsExactlyInAnyOrder("a", "b");
    assertThat(waiting()).containsExactly("c");
  }

  @Test
  void aReentrantWhoStopsPollingIsAbandonedAsAnyoneElse() {
    Instant admitted = admittedAtOnce("failed");
    reenter("failed", admitted);
    clock.advance(POLICY.abandonAfter().plusMillis(1));

    assertThat(store.sweep(queue, POLICY).block()).isEqualTo(1);
    assertThat(waiting()).isEmpty();
  }

  @Test
  void reenterOfAVisitorWhoIsNotRunningChangesNothing() {
    Instant admitted = admittedAtOnce("gone");
    store.release(queue, "gone").block();

    assertThat(reenter("gone", admitted)).isEqualTo(Reentered.NOT_RUNNING);
    assertThat(reenter("stranger", admitted)).isEqualTo(Reentered.NOT_RUNNING);
    assertThat(waiting()).isEmpty();
    assertThat(sync.exists(keys.reentries(queue))).isZero();
  }

  @Test
  void reenterOfAVisitorWhoWentBackAlreadyReportsThePlaceAndChangesNothing() {
    Instant admitted = admittedAtOnce("failed");
    waits("other");
    reenter("failed", admitted);
    clock.advance(Duration.ofMillis(5));

    Reentered again = reenter("failed", admitted);

    assertThat(again).isEqualTo(Reentered.ALREADY_WAITING);
    assertThat(again.waiting()).isTrue();
    assertThat(times("failed")).isEqualTo(1);
    assertThat(waiting()).containsExactly("failed", "other");
  }

  @Test
  void aRepeatOrACopyOfThePassAfterTheNextAdmissionLeavesThatSessionAlone() {
    Instant first = admittedAtOnce("failed");
    reenter("failed", first);
    admitOne();

    assertThat(reenter("failed", first)).isEqualTo(Reentered.NOT_RUNNING);

    assertThat(running()).containsExactly("failed");
    assertThat(times("failed")).isEqualTo(1);
  }

  @Test
  void aVisitorGoesBackAtMostMaxTimes() {
    Instant admitted = admittedAtOnce("failed");
    assertThat(reenter("failed", admitted)).isEqualTo(Reentered.FRONT);
    admitOne();
    Instant second = clock.instant();
    assertThat(reenter("failed", second)).isEqualTo(Reentered.FRONT);
    admitOne();
    Instant third = clock.instant();

    Reentered result = reenter("failed", third);

    assertThat(result).isEqualTo(Reentered.AT_MOST);
    assertThat(result.waiting()).isFalse();
    assertThat(running()).containsExactly("failed");
    assertThat(times("failed")).isEqualTo(2);
  }

  @Test
  void withReentryOffNobodyGoesBack() {
    RoomPolicy off = PolicyParser.apply("test", POLICY, Map.of("reentry-max", "0"));
    Instant admitted = admittedAtOnce("failed");

    assertThat(store.reenter(queue, "failed", admitted, off, List.of()).block())
        .isEqualTo(Reentered.AT_MOST);
    assertThat(running()).containsExactly("failed");
  }

  @Test
  void theCountsLiveAsLongAsFinishedEntries() {
    Instant admitted = admittedAtOnce("failed");

    reenter("failed", admitted);

    assertThat(sync.pttl(keys.reentries(queue)))
        .isPositive()
        .isLessThanOrEqualTo(POLICY.finishedRetention().toMillis());
    assertThat(sync.hget(keys.reentries(queue), "at|failed"))
        .isEqualTo(Long.toString(admitted.toEpochMilli()));
  }

  @Test
  void inTheLineOfAQueueThatIsOffTheKeysWrittenLiveNoLongerThanTheLine() {
    // A line nobody expires (its queue is off): enqueue.lua gave its keys the idle time to live.
    Instant admitted = admittedAtOnce("failed");
    long line = sync.pttl(keys.state(queue));
    assertThat(line).isPositive();

    reenter("failed", admitted);

    for (String key : List.of(keys.waiting(queue), keys.seen(queue), keys.state(queue))) {
      assertThat(sync.pttl(key)).as(key).isPositive().isLessThanOrEqualTo(line);
    }
  }

  @Test
  void inTheLineOfAQueueThatIsOnTheKeysKeepNoTimeToLive() {
    Instant admitted = admittedAtOnce("failed");
    store.expire(queue, POLICY).block();

    reenter("failed", admitted);

    assertThat(sync.pttl(keys.waiting(queue))).isEqualTo(-1);
    assertThat(sync.pttl(keys.state(queue))).isEqualTo(-1);
  }

  @Test
  void aCopyOfTheReentrantsPassNeverTakesASessionBackBesideThePlace() {
    // The store came back empty after the admission: the pass took the session back, then the
    // origin failed the visitor. A copy of the pass confirmed before the loss finds them in line.
    RedisActiveQueues active = queueOn();
    Instant admitted = admittedAtOnce("holder");
    clock.advance(Duration.ofSeconds(5));
    storeComesBackEmpty(active);
    assertThat(store.touch(queue, "holder", admitted, RoomPolicy.DEFAULTS).block()).isTrue();
    reenter("holder", admitted);

    assertThat(store.touch(queue, "holder", admitted, RoomPolicy.DEFAULTS).block()).isFalse();

    assertThat(running()).isEmpty();
    assertThat(waiting()).containsExactly("holder");
  }

  /** The queue on, as an instance of the active queues read it. */
  RedisActiveQueues queueOn() {
    RedisActiveQueues active =
        new RedisActiveQueues(
            fixture.connector().commands(), keys, clock, room -> Duration.ZERO, List.of());
    active.activate(queue, Activation.MANUAL).block();
    active.read().block();
    return active;
  }

  /** Redis restarts without its data, and {@code active}'s next read recovers the line. */
  void storeComesBackEmpty(RedisActiveQueues active) {
    fixture.restart();
    active.read().block();
  }
}
