package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every branch of cap_wait.lua, as status.lua, enqueue.lua and join.lua reply it, against a real
 * Redis with a clock moved by hand: which running session has to end before a place in line can be
 * admitted.
 */
class CapWaitIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "7");
  MutableClock clock;
  QueueStore store;

  /** 1 per second, room for 3 running sessions of 1 minute (an idle limit of 66 s). */
  static final RoomPolicy THREE =
      new RoomPolicy(
          1,
          Duration.ofSeconds(1),
          3,
          Duration.ofMinutes(1),
          Duration.ofSeconds(30),
          100,
          Duration.ofMinutes(10));

  static final long IDLE_LIMIT = THREE.sessionIdleLimit().toMillis();

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    // The bucket is empty, so newcomers queue even while a slot is free.
    sync.hset(keys.state(queue), "tokens", "0");
    sync.hset(keys.state(queue), "refill", Long.toString(clock.millis()));
  }

  /** A session whose last activity was {@code secondsAgo} before now. */
  void running(String visitor, long secondsAgo) {
    sync.zadd(keys.running(queue), clock.millis() - secondsAgo * 1000, visitor);
  }

  void inLine(int count) {
    for (int i = 1; i <= count; i++) {
      assertThat(store.enqueue(queue, "w" + i, THREE).block().position()).isEqualTo(i);
    }
  }

  CapWait capWait(String visitor) {
    return store.status(queue, visitor, THREE).block().capWait();
  }

  long leftOf(long secondsAgo) {
    return IDLE_LIMIT - secondsAgo * 1000;
  }

  @Test
  void whenASlotIsFreeForThePlaceThenNoSessionHasToEnd() {
    running("a", 10);
    inLine(2);

    assertThat(capWait("w1")).isEqualTo(CapWait.NONE);
    assertThat(capWait("w2")).isEqualTo(CapWait.NONE);
  }

  @Test
  void whenASlotIsFreeForThePlaceButNotForTheWholeLineThenNothingHasToEndForIt() {
    running("a", 10);
    inLine(3);

    assertThat(capWait("w1")).isEqualTo(new CapWait(0, 0, 0));
    assertThat(capWait("w3")).isEqualTo(new CapWait(leftOf(10), 0, 1));
  }

  @Test
  void whenTheCapBindsThenTheNthPlaceWaitsForTheNthEarliestEnd() {
    running("late", 5);
    running("early", 50);
    running("middle", 20);
    inLine(3);

    assertThat(capWait("w1")).isEqualTo(new CapWait(leftOf(50), 0, 1));
    assertThat(capWait("w2")).isEqualTo(new CapWait(leftOf(20), 0, 2));
    assertThat(capWait("w3")).isEqualTo(new CapWait(leftOf(5), 0, 3));
  }

  @Test
  void whenSomeSlotsAreFreeThenThePlacesBeyondThemWaitForTheEarliestEnds() {
    running("early", 50);
    running("late", 5);
    inLine(3);

    assertThat(capWait("w1")).isEqualTo(new CapWait(0, 0, 0));
    assertThat(capWait("w2")).isEqualTo(new CapWait(leftOf(50), 0, 1));
    assertThat(capWait("w3")).isEqualTo(new CapWait(leftOf(5), 0, 2));
  }

  @Test
  void whenASlotFreeNowComesRoundThenItIsASessionStartingNow() {
    running("early", 50);
    running("late", 5);
    inLine(4);

    assertThat(capWait("w4")).isEqualTo(new CapWait(IDLE_LIMIT, 0, 3));
  }

  @Test
  void pastMaxActiveEndsTheSlotComesRoundAWholeSessionLater() {
    running("a", 50);
    running("b", 20);
    running("c", 5);
    inLine(7);

    assertThat(capWait("w4")).isEqualTo(new CapWait(leftOf(50) + IDLE_LIMIT, 1, 1));
    assertThat(capWait("w6")).isEqualTo(new CapWait(leftOf(5) + IDLE_LIMIT, 1, 3));
    assertThat(capWait("w7")).isEqualTo(new CapWait(leftOf(50) + 2 * IDLE_LIMIT, 2, 1));
  }

  @Test
  void whenTheCapWasLoweredBelowRunningThenTheExtraSessionsEndFirst() {
    running("a", 50);
    running("b", 20);
    running("c", 5);
    inLine(1);
    RoomPolicy two =
        new RoomPolicy(
            1,
            Duration.ofSeconds(1),
            2,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            100,
            Duration.ofMinutes(10));

    assertThat(store.status(queue, "w1", two).block().capWait())
        .isEqualTo(new CapWait(leftOf(20), 0, 2));
  }

  @Test
  void anOverdueSessionLeavesNothingToWaitFor() {
    running("a", 70);
    running("b", 20);
    running("c", 5);
    inLine(1);

    assertThat(capWait("w1")).isEqualTo(new CapWait(0, 0, 1));
  }

  @Test
  void withoutAPolicyTheCapIsLeftOut() {
    running("a", 50);
    running("b", 20);
    running("c", 5);
    inLine(1);

    assertThat(store.status(queue, "w1").block().capWait()).isEqualTo(CapWait.NONE);
  }

  @Test
  void whenNotWaitingThenNothingIsHeldBack() {
    running("a", 50);
    running("b", 20);
    running("c", 5);

    assertThat(capWait("a")).isEqualTo(CapWait.NONE);
    assertThat(capWait("stranger")).isEqualTo(CapWait.NONE);
  }

  @Test
  void enqueueAndJoinSayHowLongTheCapHoldsTheNewPlaceBack() {
    running("a", 50);
    running("b", 20);
    running("c", 5);

    assertThat(store.enqueue(queue, "w1", THREE).block().capWait())
        .isEqualTo(new CapWait(leftOf(50), 0, 1));
    assertThat(store.join(queue, "w2", THREE).block().capWait())
        .isEqualTo(new CapWait(leftOf(20), 0, 2));
  }

  @Test
  void enqueueOfAVisitorWhoWentStraightInSaysNothingIsHeldBack() {
    sync.del(keys.state(queue));

    EnqueueResult result = store.enqueue(queue, "first", THREE).block();

    assertThat(result.admitted()).isTrue();
    assertThat(result.capWait()).isEqualTo(CapWait.NONE);
  }

  /** The room's total active users of 2, no queue cap binding (room for 3 in the queue). */
  static final RoomPolicy ROOM_OF_TWO =
      io.anteroom.queue.policy.PolicyParser.apply(
          "test", THREE, java.util.Map.of("total-active-users", "2", "max-active", "2"));

  /** A user of the room (in any of its items) whose last activity was {@code secondsAgo}. */
  void user(String visitor, long secondsAgo) {
    sync.zadd(keys.sessions("shop"), clock.millis() - secondsAgo * 1000, visitor);
  }

  @Test
  void whenTheRoomIsFullThenThePlaceWaitsForTheEarliestUserToLeaveTheRoom() {
    user("u1", 50);
    user("u2", 20);
    for (int i = 1; i <= 2; i++) {
      store.enqueue(queue, "w" + i, ROOM_OF_TWO).block();
    }

    assertThat(store.status(queue, "w1", ROOM_OF_TWO).block().capWait())
        .as("the queue itself runs nobody: only the room holds w1 back")
        .isEqualTo(new CapWait(leftOf(50), 0, 1));
    assertThat(store.status(queue, "w2", ROOM_OF_TWO).block().capWait())
        .isEqualTo(new CapWait(leftOf(20), 0, 2));
  }

  @Test
  void whenTheRoomHasAPlaceThenItHoldsNobodyBack() {
    user("u1", 50);

    EnqueueResult joined = store.enqueue(queue, "w1", ROOM_OF_TWO).block();

    assertThat(joined.capWait()).isEqualTo(CapWait.NONE);
  }

  @Test
  void whenTheRoomsBucketIsInDebtThenEveryPlaceWaitsUntilItHoldsATokenAgain() {
    // new-users-per-minute 60: a token a second; 599 owed.
    RoomPolicy inDebt =
        io.anteroom.queue.policy.PolicyParser.apply(
            "test", THREE, java.util.Map.of("new-users-per-minute", "60"));
    sync.hset(keys.budget("shop"), "tokens", "-599.000000");
    sync.hset(keys.budget("shop"), "refill", Long.toString(clock.millis() - 4_000));

    CapWait joined = store.join(queue, "w1", inDebt).block().capWait();
    CapWait polled = store.status(queue, "w1", inDebt).block().capWait();

    assertThat(joined.debtMillis()).as("596 s still owed, one token wanted").isEqualTo(596_000);
    assertThat(polled.debtMillis()).isEqualTo(596_000);
    assertThat(store.status(queue, "w1", THREE).block().capWait().debtMillis())
        .as("a room without a rate is in no debt")
        .isZero();
  }

  @Test
  void whenTheQueueHasAThirdOfAFullRoomItsFirstWaitsForTheThirdUserToLeave() {
    RoomPolicy roomOfThree =
        io.anteroom.queue.policy.PolicyParser.apply(
            "test", THREE, java.util.Map.of("total-active-users", "3"));
    user("u1", 50);
    user("u2", 30);
    user("u3", 10);
    store.enqueue(queue, "w1", roomOfThree).block();

    assertThat(store.status(queue, "w1", roomOfThree, 1.0 / 3).block().capWait())
        .as("the two ends before go to the room's other queues")
        .isEqualTo(new CapWait(leftOf(10), 0, 3));
    assertThat(store.status(queue, "w1", roomOfThree).block().capWait())
        .isEqualTo(new CapWait(leftOf(50), 0, 1));
  }
}
