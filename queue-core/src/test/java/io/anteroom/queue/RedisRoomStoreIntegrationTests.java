package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every branch of room_admit.lua, and the room's sessions kept by the queue scripts, against a real
 * Redis with a clock moved by hand.
 */
class RedisRoomStoreIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  static RedisCommands<String, String> sync;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId hot = QueueId.of("shop", "1");
  final QueueId warm = QueueId.of("shop", "2");
  MutableClock clock;
  QueueStore queues;
  RoomStore rooms;

  /**
   * Each queue: 100 per second, room for 1000, sessions of 1 minute (idle limit 66 s), abandon
   * after 30 s, batch of 500; the room's values on top.
   */
  static RoomPolicy room(String... values) {
    RoomPolicy base =
        new RoomPolicy(
            100,
            Duration.ofSeconds(1),
            1000,
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            500,
            Duration.ofMinutes(10));
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      map.put(values[i], values[i + 1]);
    }
    return PolicyParser.apply("test", base, map);
  }

  static RoomPolicy queue(RoomPolicy room, String... values) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      map.put(values[i], values[i + 1]);
    }
    return PolicyParser.applyToQueue("test", room, map);
  }

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
    clock = MutableClock.startingAt2026();
    queues = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    rooms = new RedisRoomStore(fixture.connector().commands(), keys, clock);
  }

  /** Puts {@code count} visitors named {@code prefix + i} in the queue's line. */
  void line(QueueId queue, String prefix, int count, RoomPolicy policy) {
    for (int i = 0; i < count; i++) {
      queues.enqueue(queue, prefix + i, policy).block();
    }
  }

  /**
   * Visitor a let in at once on the hot item; w0 and w1 put in the warm item's line (its bucket
   * empty) and admitted from it a second later.
   */
  void oneAtOnceThenTwoFromALine(RoomPolicy policy) {
    queues.enqueue(hot, "a", policy).block();
    sync.hset(keys.state(warm), "tokens", "0");
    sync.hset(keys.state(warm), "refill", Long.toString(clock.millis()));
    line(warm, "w", 2, policy);
    clock.advance(Duration.ofSeconds(1));
    queues.admit(warm, policy).block();
  }

  RoomAdmitResult admit(RoomPolicy room, Map<QueueId, RoomPolicy> policies) {
    return rooms.admit("shop", room, policies).block();
  }

  RoomTotals totals(RoomPolicy room) {
    return rooms.totals("shop", room, List.of(hot, warm)).block();
  }

  long sessions() {
    return sync.zcard(keys.sessions("shop"));
  }

  @Nested
  class RoomLimits {

    @Test
    void admitWhenTheRoomRateBindsThenAdmitsItsBurstAcrossQueues() {
      // 600 a minute: 10 a second, a bucket of 10.
      RoomPolicy room = room("new-users-per-minute", "600");
      line(hot, "h", 20, room);
      line(warm, "w", 20, room);

      RoomAdmitResult result = admit(room, Map.of(hot, room, warm, room));

      assertThat(result.admitted()).isEqualTo(10);
      assertThat(result.queues().get(hot).admitted() + result.queues().get(warm).admitted())
          .isEqualTo(10);
      assertThat(result.activeSessions()).isEqualTo(10);
      clock.advance(Duration.ofMillis(500));
      assertThat(admit(room, Map.of(hot, room, warm, room)).admitted()).isEqualTo(5);
    }

    @Test
    void admitAgainAtTheSameInstantAdmitsNobody() {
      RoomPolicy room = room("new-users-per-minute", "600");
      line(hot, "h", 20, room);
      admit(room, Map.of(hot, room));

      assertThat(admit(room, Map.of(hot, room)).admitted()).isZero();
    }

    @Test
    void admitWhenTheRoomIsAtTotalActiveUsersThenKeepsEveryoneWaiting() {
      RoomPolicy room = room("total-active-users", "5");
      line(hot, "h", 10, room);
      line(warm, "w", 10, room);

      assertThat(admit(room, Map.of(hot, room, warm, room)).activeSessions()).isEqualTo(5);
      clock.advance(Duration.ofSeconds(1));
      RoomAdmitResult full = admit(room, Map.of(hot, room, warm, room));

      assertThat(full.admitted()).isZero();
      assertThat(full.queues().get(hot).waiting() + full.queues().get(warm).waiting())
          .isEqualTo(15);
      assertThat(full.waiting()).as("across the queues of the call").isEqualTo(15);
    }

    @Test
    void admitCountsSessionsGivenWhileAQueueWasOff() {
      RoomPolicy room = room("total-active-users", "5");
      QueueId quiet = QueueId.of("shop", "3");
      queues.register(quiet, List.of("p1", "p2", "p3"), room).block();
      line(hot, "h", 10, room);

      RoomAdmitResult result = admit(room, Map.of(hot, room));

      assertThat(result.admitted()).isEqualTo(2);
      assertThat(result.activeSessions()).isEqualTo(5);
    }

    @Test
    void admitDropsSessionsIdlePastTheRoomsIdleLimitFirst() {
      RoomPolicy room = room("total-active-users", "3");
      QueueId quiet = QueueId.of("shop", "3");
      queues.register(quiet, List.of("p1", "p2", "p3"), room).block();
      line(hot, "h", 5, room);
      // The idle limit is the session duration (1 min) and one session check (6 s).
      clock.advance(Duration.ofSeconds(66));
      for (int i = 0; i < 5; i++) {
        queues.status(hot, "h" + i).block();
      }

      RoomAdmitResult result = admit(room, Map.of(hot, room));

      assertThat(result.admitted()).isEqualTo(3);
      assertThat(sync.zrange(keys.sessions("shop"), 0, -1))
          .containsExactlyInAnyOrder("h0", "h1", "h2");
    }

    @Test
    void admitKeepsEachQueueWithinItsOwnCap() {
      RoomPolicy room = room("total-active-users", "100");
      RoomPolicy capOfTwo = queue(room, "max-active", "2");
      line(hot, "h", 10, room);
      line(warm, "w", 10, room);

      RoomAdmitResult result = admit(room, Map.of(hot, capOfTwo, warm, room));

      assertThat(result.queues().get(hot).admitted()).isEqualTo(2);
      assertThat(result.queues().get(warm).admitted()).isEqualTo(10);
    }

    @Test
    void admitFinishesAbandonedVisitorsWithoutSpendingTheRoomsPlaces() {
      RoomPolicy room = room("new-users-per-minute", "180");
      line(hot, "gone", 3, room);
      clock.advance(Duration.ofSeconds(31));
      line(hot, "h", 3, room);

      RoomAdmitResult result = admit(room, Map.of(hot, room));

      assertThat(result.queues().get(hot)).isEqualTo(new AdmitResult(3, 3, 0, 3));
    }
  }

  @Nested
  class Full {

    @Test
    void aRoomAtTotalActiveUsersIsFullUntilItIsUnderNineTenthsOfIt() {
      RoomPolicy room = room("total-active-users", "10");
      QueueId quiet = QueueId.of("shop", "3");
      List<String> passes = new java.util.ArrayList<>();
      for (int i = 0; i < 10; i++) {
        passes.add("p" + i);
      }
      queues.register(quiet, passes, room).block();

      assertThat(rooms.check("shop", room).block().full()).isTrue();
      queues.release(quiet, "p0").block();
      assertThat(rooms.check("shop", room).block().full()).as("9 of 10: not yet").isTrue();
      queues.release(quiet, "p1").block();
      assertThat(rooms.check("shop", room).block().full()).isFalse();
    }

    @Test
    void aRoomWithAnEmptyBucketIsFullUntilHalfOfItRefilled() {
      // 600 a minute: a bucket of 10, refilled at 10 a second.
      RoomPolicy room = room("new-users-per-minute", "600");
      line(hot, "h", 30, room);

      assertThat(admit(room, Map.of(hot, room)).full()).isTrue();
      clock.advance(Duration.ofMillis(400));
      queues.release(hot, "h29").block();
      // Nobody left to take the 4 tokens, a bucket below half: still full.
      sync.del(keys.waiting(hot));
      assertThat(rooms.check("shop", room).block().full()).isTrue();
      clock.advance(Duration.ofMillis(100));
      assertThat(rooms.check("shop", room).block().full()).isFalse();
    }

    @Test
    void aRoomWithoutLimitsIsNeverFull() {
      RoomPolicy plain = room();
      queues.register(hot, List.of("p1", "p2"), plain).block();

      assertThat(rooms.check("shop", plain).block().full()).isFalse();
    }
  }

  /**
   * The room's measured new users per minute (started.lua): sum and time both decay with a time
   * constant of one minute, so the figure is about the sessions started over the last minute, and
   * each count of n sessions raises it by about n. A reading right after a count of n is at most n
   * above the true rate, one just before the next count as far below: that is the tolerance.
   */
  @Nested
  class NewUsers {

    @Test
    void admitAtASteadyRateReadsThatRateBack() {
      // 300 a minute: 5 a second, 1 or 2 for each call every quarter second.
      RoomPolicy room = room("new-users-per-minute", "300", "abandon-after", "10m");
      line(hot, "h", 800, room);
      line(warm, "w", 800, room);
      RoomAdmitResult last = null;
      for (int i = 0; i < 5 * 60 * 4; i++) {
        last = admit(room, Map.of(hot, room, warm, room));
        clock.advance(Duration.ofMillis(250));
      }

      assertThat(last.newUsersPerMinute()).isCloseTo(300, within(2.0));
      assertThat(totals(room).newUsersPerMinute()).isCloseTo(300, within(2.0));
    }

    @Test
    void aRoomWhereNobodyStartsFallsTowardsZero() {
      RoomPolicy room = room("new-users-per-minute", "300", "abandon-after", "10m");
      line(hot, "h", 800, room);
      line(warm, "w", 800, room);
      for (int i = 0; i < 5 * 60 * 4; i++) {
        admit(room, Map.of(hot, room, warm, room));
        clock.advance(Duration.ofMillis(250));
      }

      clock.advance(Duration.ofMinutes(1));
      // One time constant: the last minute's starts weigh 1/e.
      assertThat(rooms.check("shop", room).block().newUsersPerMinute())
          .isCloseTo(300 / Math.E, within(2.0));
      clock.advance(Duration.ofMinutes(9));
      assertThat(rooms.check("shop", room).block().newUsersPerMinute()).isCloseTo(0, within(0.05));
    }

    @Test
    void passesRegisteredWhileTheQueueIsOffCount() {
      RoomPolicy plain = room();
      QueueId quiet = QueueId.of("shop", "3");
      for (int second = 0; second <= 120; second++) {
        queues.register(quiet, List.of("p" + second + "a", "p" + second + "b"), plain).block();
        clock.advance(Duration.ofSeconds(1));
      }

      // Two a second for two minutes: 120 a minute.
      assertThat(rooms.check("shop", plain).block().newUsersPerMinute())
          .isCloseTo(120, within(2.0));
    }

    @Test
    void renewalsAndRepeatedRegistrationsDoNotCount() {
      RoomPolicy plain = room();
      QueueId quiet = QueueId.of("shop", "3");
      queues.register(quiet, List.of("p1", "p2"), plain).block();
      queues.enqueue(hot, "a", plain).block();
      Map<String, String> before = sync.hgetall(keys.budget("shop"));

      for (int i = 0; i < 10; i++) {
        clock.advance(Duration.ofSeconds(1));
        queues.touch(hot, "a").block();
        queues.register(quiet, List.of("p1", "p2"), plain).block();
      }

      assertThat(before).containsEntry("started-sum", "3.000000");
      assertThat(sync.hgetall(keys.budget("shop"))).isEqualTo(before);
    }

    @Test
    void newcomersLetInWhileTheQueueIsOffCountButNotTheirRenewals() {
      RoomPolicy room = room("total-active-users", "100");
      QueueId quiet = QueueId.of("shop", "3");
      assertThat(rooms.enter(quiet, "a", room, room).block()).isTrue();
      assertThat(rooms.enter(quiet, "b", room, room).block()).isTrue();
      clock.advance(Duration.ofSeconds(1));

      assertThat(rooms.enter(quiet, "a", room, room).block()).as("a renewal").isTrue();

      assertThat(Double.parseDouble(sync.hget(keys.budget("shop"), "started-sum"))).isEqualTo(2.0);
    }

    @Test
    void admissionsAndAdmissionsAtOnceOfARoomWithoutLimitsCount() {
      RoomPolicy plain = room();
      oneAtOnceThenTwoFromALine(plain);

      // One at once, two from the line a second later.
      assertThat(Double.parseDouble(sync.hget(keys.budget("shop"), "started-sum")))
          .isCloseTo(Math.exp(-1 / 60.0) + 2, within(1e-6));
    }

    @Test
    void lessThanASecondSampledIsNotKnownYet() {
      RoomPolicy plain = room();
      queues.register(hot, List.of("p1", "p2"), plain).block();
      clock.advance(Duration.ofMillis(900));

      assertThat(rooms.check("shop", plain).block().newUsersPerMinute()).isZero();
      clock.advance(Duration.ofMillis(200));
      assertThat(rooms.check("shop", plain).block().newUsersPerMinute()).isPositive();
    }
  }

  @Nested
  class Totals {

    @Test
    void totalsCountTheRoomsSessionsNotIdleAndItsWaiting() {
      RoomPolicy room = room("total-active-users", "3");
      queues.register(QueueId.of("shop", "3"), List.of("p1"), room).block();
      clock.advance(Duration.ofSeconds(66));
      queues.register(QueueId.of("shop", "3"), List.of("p2"), room).block();
      line(hot, "h", 4, room);
      line(warm, "w", 2, room);

      RoomTotals totals = totals(room);

      assertThat(totals.activeUsers()).as("p1 is idle past the limit").isEqualTo(1);
      assertThat(totals.waiting()).isEqualTo(6);
      assertThat(totals.full()).isFalse();
      assertThat(sessions()).as("read only: the idle session is left").isEqualTo(2);
    }

    @Test
    void totalsOfAFullRoomSayFull() {
      RoomPolicy room = room("total-active-users", "2");
      queues.register(QueueId.of("shop", "3"), List.of("p1", "p2"), room).block();
      rooms.check("shop", room).block();

      assertThat(totals(room).full()).isTrue();
    }

    @Test
    void totalsOfAnUntouchedRoomAreZero() {
      assertThat(totals(room())).isEqualTo(new RoomTotals(0, 0, 0, false));
    }
  }

  @Nested
  class Shares {

    @Test
    void admitSharesTheRoomsPlacesByWeight() {
      RoomPolicy room = room("new-users-per-minute", "240");
      RoomPolicy heavy = queue(room, "weight", "3");
      line(hot, "h", 100, room);
      line(warm, "w", 100, room);
      long hotAdmitted = 0;
      long warmAdmitted = 0;
      for (int i = 0; i < 10; i++) {
        RoomAdmitResult result = admit(room, Map.of(hot, heavy, warm, room));
        hotAdmitted += result.queues().get(hot).admitted();
        warmAdmitted += result.queues().get(warm).admitted();
        clock.advance(Duration.ofSeconds(1));
      }

      // 4 a second for 10 calls: 40 places, three to one.
      assertThat(hotAdmitted + warmAdmitted).isEqualTo(40);
      assertThat(hotAdmitted).isEqualTo(30);
    }

    @Test
    void admitGivesAShareAQueueCannotUseToTheOthers() {
      RoomPolicy room = room("new-users-per-minute", "600");
      line(hot, "h", 20, room);
      line(warm, "w", 2, room);

      RoomAdmitResult result = admit(room, Map.of(hot, room, warm, room));

      assertThat(result.queues().get(warm).admitted()).isEqualTo(2);
      assertThat(result.queues().get(hot).admitted()).isEqualTo(8);
    }

    @Test
    void admitStartsAQueueThatHadNobodyWaitingAtTheRoomsPass() {
      RoomPolicy room = room("new-users-per-minute", "120");
      line(hot, "h", 100, room);
      for (int i = 0; i < 10; i++) {
        admit(room, Map.of(hot, room, warm, room));
        clock.advance(Duration.ofSeconds(1));
      }
      line(warm, "w", 100, room);
      long warmAdmitted = 0;
      long hotAdmitted = 0;
      for (int i = 0; i < 5; i++) {
        RoomAdmitResult result = admit(room, Map.of(hot, room, warm, room));
        hotAdmitted += result.queues().get(hot).admitted();
        warmAdmitted += result.queues().get(warm).admitted();
        clock.advance(Duration.ofSeconds(1));
      }

      // Equal weights from here on: warm did not save up the 20 places hot took alone.
      assertThat(warmAdmitted).isEqualTo(5);
      assertThat(hotAdmitted).isEqualTo(5);
    }

    @Test
    void admitWindowGivesTheRoomsPlacesToItsQueuesAndSaysTheirPasses() {
      RoomPolicy room = room("new-users-per-minute", "240");
      line(hot, "h", 100, room);
      line(warm, "w", 100, room);

      RoomAdmitResult result =
          rooms.admitWindow("shop", room, Map.of(hot, room, warm, room), 0).block();

      assertThat(result.admitted()).isEqualTo(4);
      assertThat(result.queues().get(hot).admitted()).isEqualTo(2);
      assertThat(result.passes()).containsEntry(hot, 2.0).containsEntry(warm, 2.0);
      assertThat(sync.hget(keys.budget("shop"), "pass"))
          .as("a window does not see the room's other queues: it sets no room pass of its own")
          .isNull();
    }

    @Test
    void admitWindowRaisesTheRoomsPassToTheOneTheCallerKnows() {
      RoomPolicy room = room("new-users-per-minute", "240");
      line(warm, "w", 100, room);

      RoomAdmitResult result = rooms.admitWindow("shop", room, Map.of(warm, room), 7.5).block();

      assertThat(Double.parseDouble(sync.hget(keys.budget("shop"), "pass"))).isEqualTo(7.5);
      assertThat(result.passes().get(warm))
          .as("a queue that had nobody waiting starts from the room's pass, saving nothing up")
          .isEqualTo(11.5);
    }

    @Test
    void admitNeverStarvesALightQueue() {
      RoomPolicy room = room("new-users-per-minute", "60", "abandon-after", "10m");
      RoomPolicy heavy = queue(room, "weight", "50");
      line(hot, "h", 200, room);
      line(warm, "w", 5, room);
      long warmAdmitted = 0;
      for (int i = 0; i < 60; i++) {
        warmAdmitted += admit(room, Map.of(hot, heavy, warm, room)).queues().get(warm).admitted();
        clock.advance(Duration.ofSeconds(1));
      }

      // 60 places, one in 51 for the light queue: its first within the first two, its second
      // once the heavy one had 50 more.
      assertThat(warmAdmitted).isBetween(1L, 2L);
    }
  }

  @Nested
  class Sessions {

    @Test
    void admitAndEnqueueAtOnceAddTheRoomsSessions() {
      RoomPolicy plain = room();
      oneAtOnceThenTwoFromALine(plain);

      assertThat(sync.zrange(keys.sessions("shop"), 0, -1))
          .containsExactlyInAnyOrder("a", "w0", "w1");
    }

    @Test
    void touchMovesTheRoomsSessionForwardAndReleaseRemovesIt() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      queues.enqueue(hot, "b", plain).block();
      clock.advance(Duration.ofSeconds(10));

      queues.touch(hot, "a").block();
      queues.release(hot, "b").block();

      assertThat(sync.zscore(keys.sessions("shop"), "a")).isEqualTo(clock.millis());
      assertThat(sync.zscore(keys.sessions("shop"), "b")).isNull();
    }

    @Test
    void expireLeavesTheRoomsUsersToTheRoomsOwnIdleLimit() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      clock.advance(Duration.ofSeconds(66));

      queues.expire(hot, plain).block();

      assertThat(sync.zscore(keys.running(hot), "a")).isNull();
      assertThat(sessions()).as("dropped by the room's own rule").isOne();
      assertThat(rooms.check("shop", plain).block().activeSessions()).isZero();
      assertThat(sessions()).isZero();
    }

    @Test
    void registerTakesTokensFromTheRoomsBucket() {
      RoomPolicy room = room("new-users-per-minute", "600");
      QueueId quiet = QueueId.of("shop", "3");
      queues.register(quiet, List.of("p1", "p2", "p3", "p4"), room).block();
      line(hot, "h", 20, room);

      RoomAdmitResult result = admit(room, Map.of(hot, room));

      assertThat(result.admitted()).isEqualTo(6);
      assertThat(sessions()).isEqualTo(10);
    }

    @Test
    void activeSessionsCountsEveryItemsSessions() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      queues.register(warm, List.of("p1", "p2"), plain).block();

      assertThat(rooms.check("shop", plain).block().activeSessions()).isEqualTo(3);
    }
  }

  /** enter.lua: a newcomer on an item whose queue is off, in a room with limits. */
  @Nested
  class Enter {

    final QueueId quiet = QueueId.of("shop", "3");

    boolean enter(String visitor, RoomPolicy room) {
      return rooms.enter(quiet, visitor, room, room).block();
    }

    @Test
    void enterWhenTheRoomHasRoomAddsASessionOfTheItemAndOfTheRoomAndTakesAToken() {
      RoomPolicy room = room("new-users-per-minute", "600", "total-active-users", "100");

      assertThat(enter("a", room)).isTrue();

      assertThat(sync.zscore(keys.running(quiet), "a")).isEqualTo(clock.millis());
      assertThat(sync.zscore(keys.sessions("shop"), "a")).isEqualTo(clock.millis());
      assertThat(Double.parseDouble(sync.hget(keys.budget("shop"), "tokens"))).isEqualTo(9.0);
      assertThat(sync.pttl(keys.running(quiet))).isPositive();
    }

    @Test
    void enterWhenTheRoomIsAtTotalActiveUsersRefusesAndChangesNothing() {
      RoomPolicy room = room("total-active-users", "2");
      assertThat(enter("a", room)).isTrue();
      assertThat(enter("b", room)).isTrue();

      assertThat(enter("c", room)).isFalse();

      assertThat(sync.zscore(keys.running(quiet), "c")).isNull();
      assertThat(sessions()).isEqualTo(2);
    }

    @Test
    void enterWhenTheRoomsBucketIsEmptyRefusesUntilATokenRefilled() {
      // 60 a minute: one a second, a bucket of one.
      RoomPolicy room = room("new-users-per-minute", "60");
      assertThat(enter("a", room)).isTrue();

      assertThat(enter("b", room)).isFalse();
      clock.advance(Duration.ofMillis(999));
      assertThat(enter("b", room)).isFalse();
      clock.advance(Duration.ofMillis(1));
      assertThat(enter("b", room)).isTrue();
      assertThat(sessions()).isEqualTo(2);
    }

    @Test
    void enterWhenTheRoomIsMarkedFullRefusesThoughItsCountsAllow() {
      RoomPolicy room = room("total-active-users", "10");
      queues
          .register(hot, List.of("p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"), room)
          .block();
      assertThat(rooms.check("shop", room).block().full()).isTrue();
      queues.release(hot, "p0").block();

      assertThat(enter("a", room)).as("9 of 10, the mark still standing").isFalse();
      assertThat(sessions()).isEqualTo(9);
    }

    @Test
    void enterAgainForARunningVisitorRenewsTheSessionWithoutATokenOrAPlace() {
      RoomPolicy room = room("new-users-per-minute", "600", "total-active-users", "1");
      assertThat(enter("a", room)).isTrue();
      clock.advance(Duration.ofSeconds(5));

      assertThat(enter("a", room)).as("the room's one place is a's own").isTrue();

      assertThat(sync.zscore(keys.sessions("shop"), "a")).isEqualTo(clock.millis());
      assertThat(Double.parseDouble(sync.hget(keys.budget("shop"), "tokens"))).isEqualTo(9.0);
    }

    @Test
    void enterDropsSessionsIdlePastTheRoomsIdleLimitFirst() {
      RoomPolicy room = room("total-active-users", "1");
      assertThat(enter("a", room)).isTrue();
      clock.advance(room.sessionIdleLimit());

      assertThat(enter("b", room)).isTrue();

      assertThat(sync.zrange(keys.sessions("shop"), 0, -1)).containsExactly("b");
    }

    @Test
    void enterForAVisitorWhoHadFinishedMovesThemBackToRunning() {
      RoomPolicy room = room("total-active-users", "5");
      assertThat(enter("a", room)).isTrue();
      queues.release(quiet, "a").block();
      clock.advance(Duration.ofSeconds(1));

      assertThat(enter("a", room)).isTrue();

      assertThat(sync.zscore(keys.finished(quiet), "a")).isNull();
      assertThat(sync.zscore(keys.running(quiet), "a")).isEqualTo(clock.millis());
    }
  }
}
