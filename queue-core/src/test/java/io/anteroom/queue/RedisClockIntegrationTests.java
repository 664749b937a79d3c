package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis's clock is the only clock (clock.lua): processes whose own clocks are minutes or an hour
 * off, with no correction at all (as a process that started while Redis could not be asked would
 * be), call the scripts as the gateways and workers do, and no call moves the line's state past
 * Redis's time or holds it back by more than ten seconds. Each case fails when the scripts take the
 * caller's now as it is.
 */
class RedisClockIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  static RedisCommands<String, String> sync;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");

  /** 10 a second, a burst of 10, sessions of 10 minutes, abandon-after 2 minutes. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          10_000,
          Duration.ofMinutes(10),
          Duration.ofMinutes(2),
          500,
          Duration.ofHours(1));

  final RoomPolicy policy = POLICY;

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
  }

  RedisQueueStore queues(Duration skew) {
    return new RedisQueueStore(fixture.connector().commands(), keys, off(skew));
  }

  static Clock off(Duration skew) {
    return Clock.offset(Clock.systemUTC(), skew);
  }

  static long redisMillis() {
    List<String> time = sync.time();
    return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
  }

  void line(RedisQueueStore store, int people) {
    for (int i = 0; i < people; i++) {
      store.enqueue(queue, String.format("v%02d", i), policy).block();
    }
  }

  @Test
  void anAdmissionCallAnHourAheadDoesNotFreezeTheBucket() throws InterruptedException {
    RedisQueueStore onTime = queues(Duration.ZERO);
    line(onTime, 40);
    queues(Duration.ofHours(1)).admit(queue, policy).block();

    assertThat(Long.parseLong(sync.hget(keys.state(queue), "refill")))
        .as("the bucket's refill time")
        .isLessThanOrEqualTo(redisMillis());
    Thread.sleep(1100);
    assertThat(onTime.admit(queue, policy).block().admitted())
        .as("admitted on time, a second later")
        .isPositive();
  }

  @Test
  void aWorkerMinutesAheadAbandonsNobodyAndEndsNoSession() {
    line(queues(Duration.ZERO), 30);
    long running = sync.zcard(keys.running(queue));
    assertThat(running).isPositive();
    assertThat(sync.zcard(keys.waiting(queue))).isPositive();

    AdmitResult admitted = queues(Duration.ofMinutes(10)).admit(queue, policy).block();
    ExpireResult expired = queues(Duration.ofMinutes(20)).expire(queue, policy).block();
    long swept = queues(Duration.ofMinutes(20)).sweep(queue, policy).block();

    assertThat(admitted.abandoned()).as("abandoned").isZero();
    assertThat(expired.expired()).as("sessions ended").isZero();
    assertThat(swept).as("swept").isZero();
    assertThat(sync.zcard(keys.finished(queue))).isZero();
    assertThat(sync.zcard(keys.running(queue))).isGreaterThanOrEqualTo(running);
  }

  @Test
  void aReleaseFromAGatewayAheadLetsTheVisitorJoinAgainAtOnce() throws InterruptedException {
    RedisQueueStore onTime = queues(Duration.ZERO);
    assertThat(onTime.enqueue(queue, "v1", policy).block().admitted()).isTrue();

    assertThat(queues(Duration.ofMinutes(10)).release(queue, "v1").block()).isTrue();
    assertThat(sync.zscore(keys.finished(queue), "v1"))
        .as("finished at")
        .isLessThanOrEqualTo((double) redisMillis());
    Thread.sleep(5);

    EnqueueResult again = onTime.enqueue(queue, "v1", policy).block();
    assertThat(again.requeued()).as("joined again, not taken for a repeat").isTrue();
    assertThat(again.admitted() || again.position() > 0).isTrue();
  }

  @Test
  void aGatewayAheadCannotTrimTheRoomsSessionsPastItsLimit() {
    RoomPolicy room =
        RedisRoomStoreIntegrationTests.room(
            "total-active-users", "2", "session-duration", "10m", "abandon-after", "2m");
    QueueId item = QueueId.of("shop", "A");
    RedisRoomStore onTime =
        new RedisRoomStore(fixture.connector().commands(), keys, off(Duration.ZERO));
    RedisRoomStore ahead =
        new RedisRoomStore(fixture.connector().commands(), keys, off(Duration.ofMinutes(15)));
    assertThat(onTime.enter(item, "s1", room, room).block()).isTrue();
    assertThat(onTime.enter(item, "s2", room, room).block()).isTrue();
    assertThat(onTime.enter(item, "s3", room, room).block()).isFalse();

    assertThat(ahead.enter(item, "s4", room, room).block()).as("entered from ahead").isFalse();
    assertThat(onTime.enter(item, "s5", room, room).block()).as("entered after").isFalse();
    assertThat(sync.zrange(keys.sessions("shop"), 0, -1)).containsExactlyInAnyOrder("s1", "s2");
  }

  @Test
  void aGatewayMinutesBehindIsTakenAsTenSecondsBehindAtMost() {
    line(queues(Duration.ofMinutes(-10)), 30);
    List<ScoredValue<String>> seen = sync.zrangeWithScores(keys.seen(queue), 0, 0);
    assertThat(seen).isNotEmpty();
    assertThat(seen.get(0).getScore())
        .as("the earliest last-seen time")
        .isGreaterThanOrEqualTo(redisMillis() - 11_000.0);

    AdmitResult admitted = queues(Duration.ZERO).admit(queue, policy).block();

    assertThat(admitted.abandoned()).as("abandoned").isZero();
    assertThat(sync.zcard(keys.finished(queue))).isZero();
  }

  @Test
  void aClockMovedByHandIsTakenAsItIs() {
    MutableClock hand = new MutableClock(off(Duration.ofHours(1)).instant());
    RedisQueueStore virtual = new RedisQueueStore(fixture.connector().commands(), keys, hand);
    line(virtual, 20);
    virtual.admit(queue, policy).block();

    assertThat(Long.parseLong(sync.hget(keys.state(queue), "refill")))
        .isGreaterThan(redisMillis() + Duration.ofMinutes(59).toMillis());
  }
}
