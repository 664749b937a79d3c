package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Old entries that piled up are removed at most a thousand a call (trim.lua), so one call stays
 * short whatever the size of what it trims; the rest goes on later calls, and until then a room
 * counts a few idle users more, never fewer. 2,500 entries past their limit, on a clock moved by
 * hand.
 */
class BoundedTrimsIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();

  static final int PILED_UP = 2500;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId hot = QueueId.of("shop", "1");
  final RoomPolicy room = RedisRoomStoreIntegrationTests.room("total-active-users", "10");
  RedisCommands<String, String> sync;
  MutableClock clock;
  RoomStore rooms;
  QueueStore queues;

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
    clock = MutableClock.startingAt2026();
    rooms = new RedisRoomStore(fixture.connector().commands(), keys, clock);
    queues = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  /** {@link #PILED_UP} members of {@code key}, all at {@code score}. */
  void pileUp(String key, long score) {
    List<ScoredValue<String>> members = new ArrayList<>();
    for (int i = 0; i < PILED_UP; i++) {
      members.add(ScoredValue.just(score, "old-" + i));
    }
    sync.zadd(key, members.toArray(new ScoredValue[0]));
  }

  long idleScore() {
    return clock.millis() - room.sessionIdleLimit().toMillis() - 1000;
  }

  @Test
  void enterTrimsAThousandIdleUsersACallAndLetsNobodyInWhileTheRestCount() {
    pileUp(keys.sessions("shop"), idleScore());

    List<Long> left = new ArrayList<>();
    List<Boolean> entered = new ArrayList<>();
    for (int call = 0; call < 3; call++) {
      entered.add(rooms.enter(hot, "newcomer", room, room).block());
      left.add(sync.zcount(keys.sessions("shop"), "-inf", Long.toString(idleScore())));
    }

    assertThat(left).containsExactly(1500L, 500L, 0L);
    assertThat(entered).containsExactly(false, false, true);
    assertThat(sync.zrange(keys.sessions("shop"), 0, -1)).containsExactly("newcomer");
  }

  @Test
  void enterOfAnIdleUserTheTrimHasNotReachedYetMeetsTheRoomsLimits() {
    pileUp(keys.sessions("shop"), idleScore());
    sync.zadd(keys.sessions("shop"), idleScore(), "zz-idle");

    boolean entered = rooms.enter(hot, "zz-idle", room, room).block();

    assertThat(sync.zcard(keys.sessions("shop"))).isEqualTo(1501);
    assertThat(entered).isFalse();
    assertThat(sync.zscore(keys.running(hot), "zz-idle")).isNull();
  }

  @Test
  void roomAdmissionOfAnIdleUserTheTrimHasNotReachedYetMeetsTheRoomsLimits() {
    pileUp(keys.sessions("shop"), idleScore());
    sync.zadd(keys.sessions("shop"), idleScore(), "zz-idle");
    queues.join(hot, "zz-idle", PolicyParser.apply("test", room, Map.of("mode", "paused"))).block();

    rooms.admit("shop", room, Map.of(hot, room)).block();

    assertThat(sync.zcard(keys.sessions("shop"))).isEqualTo(1501);
    assertThat(sync.zscore(keys.running(hot), "zz-idle")).isNull();
    assertThat(sync.zscore(keys.waiting(hot), "zz-idle")).isNotNull();
  }

  @Test
  void roomAdmissionTrimsAThousandIdleUsersACall() {
    pileUp(keys.sessions("shop"), idleScore());

    rooms.admit("shop", room, Map.of(hot, room)).block();
    long afterOne = sync.zcard(keys.sessions("shop"));
    rooms.admit("shop", room, Map.of(hot, room)).block();
    rooms.admit("shop", room, Map.of(hot, room)).block();

    assertThat(afterOne).isEqualTo(1500);
    assertThat(sync.zcard(keys.sessions("shop"))).isZero();
  }

  @Test
  void expiryTrimsAThousandOldFinishedEntriesACall() {
    long old = clock.millis() - room.finishedRetention().toMillis() - 1000;
    pileUp(keys.finished(hot), old);
    sync.zadd(keys.finished(hot), clock.millis(), "recent");

    List<Long> trimmed = new ArrayList<>();
    for (int call = 0; call < 4; call++) {
      trimmed.add(queues.expire(hot, room).block().trimmed());
    }

    assertThat(trimmed).containsExactly(1000L, 1000L, 500L, 0L);
    assertThat(sync.zrange(keys.finished(hot), 0, -1)).containsExactly("recent");
  }

  @Test
  void aTrimKeepsEntriesAtTheLimitItself() {
    sync.zadd(keys.finished(hot), clock.millis() - room.finishedRetention().toMillis(), "at-limit");

    assertThat(queues.expire(hot, room).block().trimmed()).isZero();
    assertThat(sync.zrange(keys.finished(hot), 0, -1)).containsExactly("at-limit");
    clock.advance(Duration.ofMillis(1));
    assertThat(queues.expire(hot, room).block().trimmed()).isOne();
  }
}
