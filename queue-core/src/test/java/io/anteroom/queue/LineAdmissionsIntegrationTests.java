package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The line's admissions ({@link QueueKeys#admitted}): written only where the line lets someone in
 * (admit_head.lua for admit.lua and room_admit.lua, place.lua for enqueue.lua and join.lua),
 * reported by status.lua, enqueue.lua and join.lua, never written by a registration while the queue
 * is off (register.lua, enter.lua), removed with the running entry (expire.lua, release.lua,
 * reenter.lua, touch.lua, enter.lua), and living as long as the running set (register.lua,
 * enter.lua, settle.lua, idle_keys.lua, expire.lua, forget.lua). Against a real Redis with a clock
 * moved by hand.
 */
class LineAdmissionsIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");
  MutableClock clock;
  QueueStore store;
  RoomStore rooms;

  /** 10 per second, room for 100, sessions of 1 minute (an idle limit of 66 s). */
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
              "finished-retention", "10m"));

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    rooms = new RedisRoomStore(fixture.connector().commands(), keys, clock);
  }

  Double admission(String visitor) {
    return sync.zscore(keys.admitted(queue), visitor);
  }

  /** Lets {@code visitor} in at once (the line is empty and the bucket full); when it happened. */
  long admittedAtOnce(String visitor) {
    EnqueueResult result = store.enqueue(queue, visitor, POLICY).block();
    assertThat(result.admitted()).isTrue();
    return result.lineAdmittedAt();
  }

  /** Puts {@code visitor} in line behind everyone, the bucket emptied first. */
  void waits(String visitor) {
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
    assertThat(store.enqueue(queue, visitor, POLICY).block().admitted()).isFalse();
  }

  @Test
  void enqueueLettingAVisitorInAtOnceKeepsAndReportsTheAdmission() {
    long admitted = admittedAtOnce("a");

    assertThat(admitted).isEqualTo(clock.millis());
    assertThat(admission("a")).isEqualTo((double) clock.millis());
  }

  @Test
  void joinLettingANewcomerInAtOnceKeepsAndReportsTheAdmission() {
    EnqueueResult result = store.join(queue, "a", POLICY).block();

    assertThat(result.admitted()).isTrue();
    assertThat(result.lineAdmittedAt()).isEqualTo(clock.millis());
    assertThat(admission("a")).isEqualTo((double) clock.millis());
  }

  @Test
  void aVisitorInLineHasNoAdmission() {
    admittedAtOnce("a");
    waits("b");

    assertThat(admission("b")).isNull();
    assertThat(store.status(queue, "b").block().lineAdmittedAt()).isZero();
  }

  @Test
  void admitKeepsWhenTheLineLetEachVisitorInWhichConfirmationsDoNotMove() {
    admittedAtOnce("a");
    waits("b");
    waits("c");
    clock.advance(Duration.ofSeconds(1));
    long admittedAt = clock.millis();

    assertThat(store.admit(queue, POLICY).block().admitted()).isEqualTo(2);
    clock.advance(Duration.ofSeconds(20));
    assertThat(store.touch(queue, "b", null, POLICY).block()).isTrue();

    assertThat(admission("b")).isEqualTo((double) admittedAt);
    assertThat(admission("c")).isEqualTo((double) admittedAt);
    VisitorStatus b = store.status(queue, "b").block();
    assertThat(b.admittedAt()).as("the last activity").isEqualTo(clock.millis());
    assertThat(b.lineAdmittedAt()).isEqualTo(admittedAt);
  }

  @Test
  void enqueueOrJoinFindingAVisitorRunningReportsTheLinesAdmissionNotNow() {
    long admitted = admittedAtOnce("a");
    clock.advance(Duration.ofSeconds(5));

    EnqueueResult again = store.enqueue(queue, "a", POLICY).block();
    EnqueueResult joined = store.join(queue, "a", POLICY).block();

    assertThat(again.admitted()).isTrue();
    assertThat(again.added()).isFalse();
    assertThat(again.lineAdmittedAt()).isEqualTo(admitted);
    assertThat(joined.admitted()).isTrue();
    assertThat(joined.lineAdmittedAt()).isEqualTo(admitted);
  }

  @Test
  void aVisitorRegisteredWhileTheQueueIsOffRunsWithoutAnAdmission() {
    store.register(queue, List.of("r"), POLICY).block();

    assertThat(admission("r")).isNull();
    VisitorStatus status = store.status(queue, "r").block();
    assertThat(status.state()).isEqualTo(VisitorStatus.State.ADMITTED);
    assertThat(status.lineAdmittedAt()).isZero();
    EnqueueResult found = store.enqueue(queue, "r", POLICY).block();
    assertThat(found.admitted()).isTrue();
    assertThat(found.lineAdmittedAt()).isZero();
    assertThat(store.join(queue, "r", POLICY).block().lineAdmittedAt()).isZero();
  }

  @Test
  void registerKeepsTheAdmissionOfOneTheLineLetInAndGivesItTheRunningSetsTimeToLive() {
    long admitted = admittedAtOnce("a");
    store.expire(queue, POLICY).block();
    assertThat(sync.pttl(keys.admitted(queue))).as("the queue on: none").isEqualTo(-1);

    store.register(queue, List.of("a", "r"), POLICY).block();

    assertThat(admission("a")).isEqualTo((double) admitted);
    assertThat(admission("r")).isNull();
    assertThat(sync.pttl(keys.admitted(queue)))
        .isPositive()
        .isLessThanOrEqualTo(sync.pttl(keys.running(queue)) + 1);
  }

  @Test
  void expireRemovesTheAdmissionOfAnEndedSessionAndTheTimeToLive() {
    admittedAtOnce("a");
    clock.advance(Duration.ofSeconds(30));
    store.register(queue, List.of("r"), POLICY).block();
    long later = clock.millis();
    waits("b");
    clock.advance(Duration.ofSeconds(1));
    store.admit(queue, POLICY).block();
    assertThat(sync.pttl(keys.admitted(queue))).isPositive();
    clock.advance(POLICY.sessionIdleLimit().minusSeconds(30));

    ExpireResult result = store.expire(queue, POLICY).block();

    assertThat(result.expired()).as("a, whose session was idle past its limit").isEqualTo(1);
    assertThat(sync.zrange(keys.admitted(queue), 0, -1)).containsExactly("b");
    assertThat(sync.zscore(keys.running(queue), "r")).isEqualTo((double) later);
    assertThat(sync.pttl(keys.admitted(queue))).isEqualTo(-1);
  }

  @Test
  void expireOfAVirtualLineGivesItsAdmissionsTheIdleTimeToLive() {
    RedisQueueStore shadow = RedisQueueStore.shadow(fixture.connector().commands(), keys, clock);
    QueueKeys virtual = keys.shadow();
    assertThat(shadow.join(queue, "a", POLICY).block().admitted()).isTrue();
    sync.persist(virtual.admitted(queue));

    shadow.expire(queue, POLICY).block();

    assertThat(sync.zscore(virtual.admitted(queue), "a")).isEqualTo((double) clock.millis());
    assertThat(sync.pttl(virtual.admitted(queue))).isPositive();
  }

  @Test
  void releaseRemovesTheAdmission() {
    admittedAtOnce("a");
    admittedAtOnce("b");

    assertThat(store.release(queue, "a").block()).isTrue();

    assertThat(sync.zrange(keys.admitted(queue), 0, -1)).containsExactly("b");
  }

  @Test
  void reenterRemovesTheAdmissionAndTheLineKeepsTheNextOne() {
    long first = admittedAtOnce("a");
    waits("b");
    clock.advance(Duration.ofSeconds(2));

    Reentered result =
        store.reenter(queue, "a", Instant.ofEpochMilli(first), POLICY, List.of()).block();

    assertThat(result).isEqualTo(Reentered.FRONT);
    assertThat(admission("a")).isNull();
    clock.advance(Duration.ofSeconds(1));
    long second = clock.millis();
    RoomPolicy one = PolicyParser.apply("test", POLICY, Map.of("admit-batch", "1"));
    assertThat(store.admit(queue, one).block().admitted()).isEqualTo(1);
    assertThat(admission("a")).isEqualTo((double) second);
    assertThat(store.status(queue, "a").block().lineAdmittedAt()).isEqualTo(second);
  }

  @Test
  void touchOfASessionIdlePastItsLimitRemovesTheAdmission() {
    admittedAtOnce("a");
    clock.advance(POLICY.sessionIdleLimit().plusSeconds(1));

    assertThat(store.touch(queue, "a", null, POLICY).block()).isFalse();

    assertThat(admission("a")).isNull();
    assertThat(sync.zscore(keys.finished(queue), "a")).isEqualTo((double) clock.millis());
  }

  @Test
  void enterOfAnIdleSessionEndsItsAdmissionAndEntersWithNone() {
    RoomPolicy room = RedisRoomStoreIntegrationTests.room("total-active-users", "10");
    admittedAtOnce("a");
    clock.advance(room.sessionIdleLimit().plusSeconds(1));

    assertThat(rooms.enter(queue, "a", room, room).block()).isTrue();

    assertThat(admission("a")).isNull();
    VisitorStatus status = store.status(queue, "a").block();
    assertThat(status.state()).isEqualTo(VisitorStatus.State.ADMITTED);
    assertThat(status.lineAdmittedAt()).isZero();
  }

  @Test
  void enterGivesTheAdmissionsTheRunningSetsTimeToLiveAndWritesNone() {
    RoomPolicy room = RedisRoomStoreIntegrationTests.room("total-active-users", "10");
    long admitted = admittedAtOnce("a");
    store.expire(queue, POLICY).block();

    assertThat(rooms.enter(queue, "e", room, room).block()).isTrue();

    assertThat(admission("e")).isNull();
    assertThat(admission("a")).isEqualTo((double) admitted);
    assertThat(sync.pttl(keys.admitted(queue)))
        .isPositive()
        .isLessThanOrEqualTo(sync.pttl(keys.running(queue)) + 1);
  }

  @Test
  void roomAdmitKeepsTheAdmissionOfThoseInsideAndOfThoseGivenAPlace() {
    RoomPolicy room = RedisRoomStoreIntegrationTests.room("total-active-users", "2");
    QueueId other = QueueId.of("shop", "7");
    assertThat(rooms.enter(other, "inside", room, room).block()).isTrue();
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
    assertThat(store.enqueue(queue, "inside", room).block().admitted()).isFalse();
    assertThat(store.enqueue(queue, "new", room).block().admitted()).isFalse();
    clock.advance(Duration.ofSeconds(1));

    RoomAdmitResult result = rooms.admit("shop", room, Map.of(queue, room)).block();

    assertThat(result.queues().get(queue).admitted()).isEqualTo(2);
    assertThat(admission("inside")).isEqualTo((double) clock.millis());
    assertThat(admission("new")).isEqualTo((double) clock.millis());
    assertThat(sync.zcard(keys.admitted(other))).isZero();
  }

  @Test
  void aWriteToTheLineOfAQueueThatIsOffGivesTheAdmissionsTheIdleTimeToLive() {
    admittedAtOnce("a");

    assertThat(sync.pttl(keys.state(queue))).as("a line nobody works on").isPositive();
    assertThat(sync.pttl(keys.admitted(queue))).isPositive();
  }

  @Test
  void settlingAQueueGivesItsAdmissionsTheKeysTimeToLive() {
    RoomPolicy queueAll = PolicyParser.apply("test", POLICY, Map.of("mode", "queue-all"));
    admittedAtOnce("a");
    store.expire(queue, POLICY).block();
    TrafficStore traffic = new RedisTrafficStore(fixture.connector().commands(), keys, clock);

    assertThat(traffic.settled(queue, queueAll).block()).isFalse();
    assertThat(traffic.settled(queue, queueAll).block()).isTrue();

    assertThat(sync.pttl(keys.admitted(queue))).isPositive();
  }

  @Test
  void forgetDeletesTheAdmissionsWithTheLineOfAQueueThatIsOff() {
    admittedAtOnce("a");

    assertThat(forget()).isEqualTo(1);

    assertThat(sync.exists(keys.admitted(queue), keys.running(queue))).isZero();
  }

  @Test
  void forgetKeepsTheLineWhoseAdmissionsHaveNoTimeToLive() {
    admittedAtOnce("a");
    sync.persist(keys.admitted(queue));

    assertThat(forget()).isZero();

    assertThat(admission("a")).isNotNull();
  }

  @Test
  void aForgetSentBeforeAJoinWroteTheLineKeepsIt() {
    long sent = clock.millis();
    clock.advance(Duration.ofMillis(200));
    store.join(queue, "newcomer", POLICY).block();

    // Lettuce sends the deletion again after the join: it was sent before, with that now.
    assertThat(forget(sent)).isZero();

    // The line was empty: the newcomer went in at once, and the line's keys hold that.
    assertThat(sync.zscore(keys.running(queue), "newcomer")).isNotNull();
    assertThat(sync.exists(keys.state(queue))).isOne();
  }

  private long forget() {
    return forget(clock.millis() + 1);
  }

  private long forget(long now) {
    return new ScriptRunner(fixture.connector().commands(), clock)
        .<Long>run(
            QueueScripts.FORGET,
            ScriptOutputType.INTEGER,
            keys.scriptKeys(queue),
            Long.toString(now))
        .block();
  }
}
