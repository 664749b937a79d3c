package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The room counts people, not items (sessions.lua): every script that starts, renews or ends a
 * session, against a real Redis with a clock moved by hand. Each queue: 100 per second, sessions of
 * 1 minute (idle limit 66 s).
 */
class RoomUsersIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  static RedisCommands<String, String> sync;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId hot = QueueId.of("shop", "1");
  final QueueId warm = QueueId.of("shop", "2");
  final QueueId quiet = QueueId.of("shop", "3");
  final QueueId calm = QueueId.of("shop", "4");

  /** started.lua's count of one new user a second ago (decayed over 60 s) and one now. */
  static final double ONE_AND_ONE_OLD = 1 + Math.exp(-1.0 / 60);

  static final Offset<Double> EXACT = within(1e-5);

  MutableClock clock;
  QueueStore queues;
  RoomStore rooms;

  /** Each queue: 100 per second, sessions of 1 minute (an idle limit of 66 s). */
  static RoomPolicy room(String... values) {
    return RedisRoomStoreIntegrationTests.room(values);
  }

  static RoomPolicy queue(RoomPolicy room, String... values) {
    return RedisRoomStoreIntegrationTests.queue(room, values);
  }

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
    clock = MutableClock.startingAt2026();
    queues = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    rooms = new RedisRoomStore(fixture.connector().commands(), keys, clock);
  }

  List<String> users() {
    return sync.zrange(keys.sessions("shop"), 0, -1);
  }

  double startedSum() {
    String sum = sync.hget(keys.budget("shop"), "started-sum");
    return sum == null ? 0 : Double.parseDouble(sum);
  }

  double roomTokens() {
    return Double.parseDouble(sync.hget(keys.budget("shop"), "tokens"));
  }

  boolean enter(QueueId queue, String visitor, RoomPolicy room) {
    return rooms.enter(queue, visitor, room, room).block();
  }

  /** room_admit.lua and admit.lua. */
  @Nested
  class Admission {

    @Test
    void roomAdmitOfOneVisitorInTwoLinesCountsOneUserOneNewUserAndOneToken() {
      RoomPolicy room = room("new-users-per-minute", "600", "total-active-users", "100");
      queues.enqueue(hot, "v", room).block();
      queues.enqueue(warm, "v", room).block();
      queues.enqueue(warm, "w", room).block();

      RoomAdmitResult result = rooms.admit("shop", room, Map.of(hot, room, warm, room)).block();

      assertThat(result.admitted()).isEqualTo(3);
      assertThat(result.activeSessions()).isEqualTo(2);
      assertThat(users()).containsExactlyInAnyOrder("v", "w");
      assertThat(startedSum()).isEqualTo(2.0);
      assertThat(roomTokens()).as("a bucket of 10, two people").isEqualTo(8.0);
      assertThat(sync.zcard(keys.running(hot)) + sync.zcard(keys.running(warm))).isEqualTo(3);
    }

    @Test
    void roomAdmitWhenTheRoomIsFullLetsInThoseAtTheHeadWhoAreInsideAlready() {
      RoomPolicy room = room("total-active-users", "1");
      assertThat(enter(quiet, "v", room)).isTrue();
      queues.enqueue(hot, "v", room).block();
      queues.enqueue(hot, "w", room).block();

      RoomAdmitResult result = rooms.admit("shop", room, Map.of(hot, room)).block();

      assertThat(result.queues().get(hot).admitted()).as("v, no room place taken").isOne();
      assertThat(sync.zscore(keys.running(hot), "v")).isNotNull();
      assertThat(sync.zrange(keys.waiting(hot), 0, -1)).containsExactly("w");
      assertThat(result.activeSessions()).isEqualTo(1);
      assertThat(users()).containsExactly("v");
    }

    @Test
    void roomAdmitWhenTheRoomIsFullKeepsTheLinesOrder() {
      RoomPolicy room = room("total-active-users", "1");
      assertThat(enter(quiet, "v", room)).isTrue();
      queues.enqueue(hot, "w", room).block();
      queues.enqueue(hot, "v", room).block();

      RoomAdmitResult result = rooms.admit("shop", room, Map.of(hot, room)).block();

      assertThat(result.admitted()).as("w first, who needs a place the room has not").isZero();
      assertThat(sync.zrange(keys.waiting(hot), 0, -1)).containsExactly("w", "v");
    }

    @Test
    void admitOfAVisitorActiveInAnotherItemCountsNoNewUser() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("v"), plain).block();
      sync.hset(keys.state(hot), "tokens", "0");
      sync.hset(keys.state(hot), "refill", Long.toString(clock.millis()));
      queues.enqueue(hot, "v", plain).block();
      queues.enqueue(hot, "w", plain).block();
      clock.advance(Duration.ofSeconds(1));

      assertThat(queues.admit(hot, plain).block().admitted()).isEqualTo(2);

      assertThat(users()).containsExactlyInAnyOrder("v", "w");
      assertThat(startedSum())
          .as("v a second ago, decayed; w now")
          .isCloseTo(ONE_AND_ONE_OLD, EXACT);
    }
  }

  /** register.lua: passes given while a queue is off, in a room without limits. */
  @Nested
  class Register {

    @Test
    void registerOfOneVisitorOnThreeItemsIsOneUserAndOneToken() {
      RoomPolicy room = room("new-users-per-minute", "600");
      for (QueueId queue : List.of(hot, warm, quiet)) {
        queues.register(queue, List.of("v"), room).block();
      }

      assertThat(users()).containsExactly("v");
      assertThat(startedSum()).isEqualTo(1.0);
      assertThat(roomTokens()).isEqualTo(9.0);
    }

    @Test
    void registerInShadowModeCountsTheUsersButTakesNoTokenFromTheRoomsBucket() {
      RoomPolicy shadow = room("new-users-per-minute", "60", "mode", "shadow");
      List<String> crowd =
          java.util.stream.IntStream.range(0, 2000).mapToObj(i -> "v" + i).toList();

      queues.register(quiet, crowd, shadow).block();

      assertThat(sync.zcard(keys.sessions("shop"))).as("really inside").isEqualTo(2000);
      assertThat(sync.hget(keys.budget("shop"), "tokens"))
          .as("a dry run leaves the room's budget as it was: no debt once it goes live")
          .isNull();
    }

    @Test
    void registerOfARenewalMovesTheUsersActivityForward() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("v"), plain).block();
      clock.advance(Duration.ofSeconds(50));

      queues.register(quiet, List.of("v"), plain).block();
      clock.advance(Duration.ofSeconds(50));

      assertThat(rooms.check("shop", plain).block().activeSessions())
          .as("browsing, 100 s after the first pass")
          .isOne();
      assertThat(startedSum()).isEqualTo(1.0);
    }
  }

  /** enter.lua: a visitor on an item whose queue is off, in a room with limits. */
  @Nested
  class Enter {

    @Test
    void enterOfAnActiveUserOnMoreItemsTakesNoPlaceAndNoToken() {
      RoomPolicy room = room("new-users-per-minute", "60", "total-active-users", "2");
      assertThat(enter(quiet, "v", room)).isTrue();

      assertThat(enter(calm, "v", room)).isTrue();
      assertThat(enter(warm, "v", room)).isTrue();
      assertThat(enter(hot, "w", room)).as("a token refilled a second later").isFalse();
      clock.advance(Duration.ofSeconds(1));
      assertThat(enter(hot, "w", room)).isTrue();

      assertThat(users()).containsExactlyInAnyOrder("v", "w");
      assertThat(startedSum())
          .as("v a second ago, decayed; w now")
          .isCloseTo(ONE_AND_ONE_OLD, EXACT);
    }

    @Test
    void enterWhenTheRoomIsFullLetsAnActiveUserOpenAnotherItem() {
      RoomPolicy room = room("total-active-users", "1");
      assertThat(enter(quiet, "v", room)).isTrue();

      assertThat(enter(calm, "v", room)).isTrue();
      assertThat(enter(calm, "w", room)).isFalse();
    }

    @Test
    void enterRepeatedAfterTheSessionWasReleasedEntersNobody() {
      RoomPolicy room = room("total-active-users", "2");
      assertThat(enter(calm, "a", room)).isTrue();
      queues.release(calm, "a", List.of()).block();

      // The same call again, as Lettuce re-sends one whose reply a dropped connection lost.
      assertThat(enter(calm, "a", room)).isFalse();

      assertThat(sync.zscore(keys.running(calm), "a")).isNull();
      assertThat(users()).isEmpty();
      clock.advance(Duration.ofMillis(1));
      assertThat(enter(calm, "a", room)).as("a later request enters again").isTrue();
    }

    @Test
    void enterForAnIdleSessionOfAQueueThatIsOffEndsItAndMeetsTheRoomsLimits() {
      RoomPolicy room = room("total-active-users", "1");
      assertThat(enter(calm, "a", room)).isTrue();
      clock.advance(room.sessionIdleLimit().plusSeconds(1));
      assertThat(enter(quiet, "c", room)).isTrue();

      assertThat(enter(calm, "a", room)).as("a's session ended; the room is full").isFalse();

      assertThat(sync.zscore(keys.running(calm), "a")).isNull();
      assertThat(sync.zscore(keys.finished(calm), "a")).isEqualTo(clock.millis());
      assertThat(users()).containsExactly("c");
    }

    @Test
    void enterTrimsTheRoomsUsersByTheRoomsIdleLimitNotTheQueues() {
      RoomPolicy room = room("total-active-users", "2", "session-duration", "10m");
      RoomPolicy shortSessions = queue(room, "session-duration", "2m");
      assertThat(enter(hot, "v1", room)).isTrue();
      assertThat(enter(hot, "v2", room)).isTrue();
      clock.advance(Duration.ofSeconds(200));

      assertThat(rooms.enter(warm, "v3", shortSessions, room).block()).isFalse();
      assertThat(rooms.enter(warm, "v4", shortSessions, room).block()).isFalse();

      assertThat(users()).containsExactlyInAnyOrder("v1", "v2");
    }

    @Test
    void aQueueWhoseSessionWouldOutlastTheRoomsIsRefused() {
      RoomPolicy room = room("total-active-users", "2", "session-duration", "10m");

      assertThatThrownBy(() -> queue(room, "session-duration", "30m"))
          .isInstanceOf(InvalidPolicyException.class)
          .hasMessageContaining("session-duration");
      assertThatThrownBy(
              () ->
                  queue(
                      room("session-duration", "10m", "pass-recheck", "10s"), "pass-recheck", "1m"))
          .as("a longer check lengthens the session too")
          .isInstanceOf(InvalidPolicyException.class)
          .hasMessageContaining("session-duration");
      assertThat(queue(room, "session-duration", "2m").sessionDuration())
          .isEqualTo(Duration.ofMinutes(2));
    }
  }

  /** touch.lua: a pass holder's confirmation. */
  @Nested
  class Touch {

    @Test
    void touchOfASessionIdlePastItsLimitEndsItWithoutCountingItsHolder() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("a"), plain).block();
      clock.advance(plain.sessionIdleLimit().plusSeconds(1));
      rooms.check("shop", plain).block();

      assertThat(queues.touch(quiet, "a", clock.instant(), plain).block()).isFalse();

      assertThat(sync.zscore(keys.running(quiet), "a")).isNull();
      assertThat(sync.zscore(keys.finished(quiet), "a")).isNotNull();
      assertThat(users()).isEmpty();
    }

    @Test
    void touchOfALiveSessionMovesTheUsersActivityForward() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("a"), plain).block();
      clock.advance(Duration.ofSeconds(30));

      assertThat(queues.touch(quiet, "a", clock.instant(), plain).block()).isTrue();

      assertThat(sync.zscore(keys.sessions("shop"), "a")).isEqualTo(clock.millis());
    }

    @Test
    void touchInARoomOfRoomScopeKeepsASessionWhoseHolderIsActiveElsewhere() {
      RoomPolicy roomScope = room("session-scope", "room");
      queues.register(quiet, List.of("a"), roomScope).block();
      queues.register(calm, List.of("a"), roomScope).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(calm, List.of("a"), roomScope).block();
      clock.advance(Duration.ofSeconds(50));

      assertThat(queues.touch(quiet, "a", clock.instant(), roomScope).block()).isTrue();
      assertThat(queues.touch(quiet, "a", clock.instant(), room()).block())
          .as("renewed just now, in either scope")
          .isTrue();
    }

    @Test
    void touchInARoomOfItemScopeEndsASessionIdleInItsItemThoughItsHolderBrowsesAnother() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("a"), plain).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(calm, List.of("a"), plain).block();
      clock.advance(Duration.ofSeconds(50));

      assertThat(queues.touch(quiet, "a", clock.instant(), plain).block()).isFalse();
      assertThat(users()).as("still browsing the other item").containsExactly("a");
    }
  }

  /** expire.lua by the room's session scope. */
  @Nested
  class Expire {

    @Test
    void expireInARoomOfRoomScopeMovesAnIdleSessionUpToItsHoldersLastActivity() {
      RoomPolicy roomScope = room("session-scope", "room");
      queues.enqueue(hot, "a", roomScope).block();
      queues.enqueue(hot, "b", roomScope).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(quiet, List.of("a"), roomScope).block();
      long browsed = clock.millis();
      clock.advance(Duration.ofSeconds(20));

      ExpireResult result = queues.expire(hot, roomScope).block();

      assertThat(result.expired()).as("b only").isOne();
      assertThat(sync.zscore(keys.running(hot), "a")).isEqualTo((double) browsed);
      assertThat(sync.zscore(keys.running(hot), "b")).isNull();
    }

    @Test
    void aSessionKeptByTheRoomsActivityIsFoundRunningWhenItsHolderComesBackToTheLine() {
      assertThat(comesBackAfterBrowsingElsewhere(room("session-scope", "room")).admitted())
          .as("100 s after the last request to the item")
          .isTrue();
      sync.flushall();
      assertThat(comesBackAfterBrowsingElsewhere(room()).admitted())
          .as("in item scope the session ended: a place in line")
          .isFalse();
    }

    /**
     * Visitor a, let into the hot item, browses only the quiet one for 100 s, then comes back to
     * the hot item's line, which lets no newcomer in at once (its bucket empty).
     */
    EnqueueResult comesBackAfterBrowsingElsewhere(RoomPolicy policy) {
      queues.enqueue(hot, "a", policy).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(quiet, List.of("a"), policy).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(quiet, List.of("a"), policy).block();
      queues.expire(hot, policy).block();
      sync.hset(keys.state(hot), "tokens", "0");
      sync.hset(keys.state(hot), "refill", Long.toString(clock.millis()));
      return queues.enqueue(hot, "a", policy).block();
    }

    @Test
    void expireInARoomOfItemScopeEndsAnIdleSessionThoughItsHolderBrowsesAnother() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      clock.advance(Duration.ofSeconds(50));
      queues.register(quiet, List.of("a"), plain).block();
      clock.advance(Duration.ofSeconds(20));

      assertThat(queues.expire(hot, plain).block().expired()).isOne();
      assertThat(users()).containsExactly("a");
    }
  }

  /** release.lua and reenter.lua: the end of a session that may be the visitor's last. */
  @Nested
  class Leaving {

    @Test
    void releaseOfOneOfTwoItemsKeepsTheUserAndOfTheLastDropsThem() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      queues.register(quiet, List.of("a"), plain).block();

      queues.release(hot, "a", List.of(quiet, warm)).block();
      assertThat(users()).containsExactly("a");

      queues.release(quiet, "a", List.of(hot)).block();
      assertThat(users()).isEmpty();
    }

    @Test
    void releaseOfAPlaceInLineLeavesTheUserAlone() {
      RoomPolicy plain = room();
      queues.register(quiet, List.of("a"), plain).block();
      sync.hset(keys.state(hot), "tokens", "0");
      sync.hset(keys.state(hot), "refill", Long.toString(clock.millis()));
      queues.enqueue(hot, "a", plain).block();

      assertThat(queues.release(hot, "a", List.of()).block()).isTrue();

      assertThat(users()).as("a still runs in the quiet item").containsExactly("a");
    }

    @Test
    void reenterKeepsAUserRunningInAnotherItemAndDropsOneWhoRunsNowhere() {
      RoomPolicy plain = room();
      queues.enqueue(hot, "a", plain).block();
      queues.enqueue(hot, "b", plain).block();
      queues.register(quiet, List.of("a"), plain).block();
      var admitted = clock.instant();
      clock.advance(Duration.ofSeconds(1));

      queues.reenter(hot, "a", admitted, plain, List.of(quiet)).block();
      queues.reenter(hot, "b", admitted, plain, List.of(quiet)).block();

      assertThat(users()).containsExactly("a");
    }
  }
}
