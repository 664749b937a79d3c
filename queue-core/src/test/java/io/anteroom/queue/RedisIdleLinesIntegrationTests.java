package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The keys of queues that are off: every write gives them the idle time to live, a room keeps at
 * most a bound of such lines and deletes the least recently written beyond it, and a queue that is
 * on keeps its keys whatever the bound. Real Redis, clock moved by hand.
 */
class RedisIdleLinesIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  static final int BOUND = 3;

  /** Sessions of 1 minute, finished kept 10 minutes: the idle time to live is 10 minutes. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          100,
          Duration.ofMinutes(1),
          Duration.ofSeconds(30),
          500,
          Duration.ofMinutes(10));

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;
  RedisIdleLines idle;
  QueueStore store;

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    idle = new RedisIdleLines(fixture.connector().commands(), keys, clock, BOUND);
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock, idle);
  }

  static QueueId item(String item) {
    return QueueId.of("shop", item);
  }

  /** A newcomer joins the line of {@code item}, whose queue is off; waits for the report. */
  void joinOff(String item) {
    long before = sync.zscore(keys.idle("shop"), item) == null ? -1 : 0;
    store.join(item(item), "v-" + item, POLICY).block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> sync.zscore(keys.idle("shop"), item) != null || before == 0);
  }

  @Test
  void aJoinToAQueueThatIsOffGivesEveryKeyTheIdleTimeToLiveAndRecordsTheLine() {
    joinOff("1");

    long ttl = POLICY.idleTimeToLive().toMillis();
    for (String key : List.of(keys.running(item("1")), keys.state(item("1")))) {
      assertThat(sync.pttl(key)).isBetween(ttl - 5_000, ttl);
    }
    assertThat(sync.zrange(keys.idle("shop"), 0, -1)).containsExactly("1");
    assertThat(sync.pttl(keys.idle("shop"))).isBetween(ttl - 5_000, ttl);
  }

  @Test
  void beyondTheBoundTheLeastRecentlyWrittenLinesAreDeleted() {
    for (int i = 1; i <= BOUND; i++) {
      joinOff(Integer.toString(i));
      clock.advance(Duration.ofSeconds(1));
    }
    // Written again: now the most recent.
    store.enqueue(item("1"), "v-1", POLICY).block();
    clock.advance(Duration.ofSeconds(1));

    store.join(item("4"), "v-4", POLICY).block();

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> sync.exists(keys.running(item("2")), keys.state(item("2"))) == 0);
    assertThat(sync.zrange(keys.idle("shop"), 0, -1)).containsExactlyInAnyOrder("1", "3", "4");
    assertThat(sync.exists(keys.running(item("1")), keys.running(item("3")))).isEqualTo(2);
  }

  @Test
  void aQueueThatIsOnKeepsItsKeysBeyondTheBound() {
    joinOff("on");
    // The worker's expiry, as for every queue that is on.
    store.expire(item("on"), POLICY).block();
    assertThat(sync.pttl(keys.running(item("on")))).isEqualTo(-1);
    clock.advance(Duration.ofSeconds(1));

    assertThat(idle.written("shop", List.of("a", "b", "c"), Duration.ofMinutes(10)).block())
        .isZero();

    assertThat(sync.exists(keys.running(item("on")), keys.state(item("on")))).isEqualTo(2);
    assertThat(sync.zrange(keys.idle("shop"), 0, -1)).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void aQueueListedAsOnKeepsItsKeysBeyondTheBoundBeforeTheWorkerHasSeenIt() {
    joinOff("new");
    // Turned on, and no worker has removed the time to live of its keys yet (or none is running).
    sync.hset(keys.active(), "shop:new", "manual");
    clock.advance(Duration.ofSeconds(1));

    assertThat(idle.written("shop", List.of("a", "b", "c"), Duration.ofMinutes(10)).block())
        .isZero();

    assertThat(sync.exists(keys.running(item("new")), keys.state(item("new")))).isEqualTo(2);
  }

  @Test
  void aJoinToAQueueThatIsOnLeavesItsKeysWithoutTimeToLive() {
    joinOff("on");
    store.expire(item("on"), POLICY).block();

    store.join(item("on"), "w", POLICY).block();

    assertThat(sync.pttl(keys.running(item("on")))).isEqualTo(-1);
    assertThat(sync.pttl(keys.state(item("on")))).isEqualTo(-1);
  }

  @Test
  void theWorkersExpiryRemovesTheTimeToLiveOfAllFiveKeys() {
    QueueId queue = item("5");
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
    sync.pexpire(keys.state(queue), 60_000);
    store.enqueue(queue, "w", POLICY).block();
    store.release(queue, "nobody").block();
    assertThat(sync.pttl(keys.waiting(queue))).isPositive();
    assertThat(sync.pttl(keys.seen(queue))).isPositive();

    store.expire(queue, POLICY).block();

    for (String key : keys.scriptKeys(queue)) {
      assertThat(sync.pttl(key)).as(key).isIn(-1L, -2L);
    }
    assertThat(sync.pttl(keys.waiting(queue))).isEqualTo(-1);
  }

  @Test
  void releasingASessionOfAQueueThatIsOffLeavesNoKeyWithoutTimeToLive() {
    joinOff("6");

    assertThat(store.release(item("6"), "v-6").block()).isTrue();

    assertThat(sync.exists(keys.finished(item("6")))).isEqualTo(1);
    assertThat(sync.pttl(keys.finished(item("6")))).isPositive();
    assertThat(sync.pttl(keys.state(item("6")))).isPositive();
  }
}
