package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.testing.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The traffic scripts against a real Redis with a clock moved by hand. */
class RedisTrafficStoreIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");

  /** On above 20/s over 3 s, quiet below 5/s, off after 10 s of quiet. */
  final RoomPolicy policy =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "activate-above", "20",
              "deactivate-below", "5",
              "activation-window", "3s",
              "cool-down", "10s"));

  MutableClock clock;
  TrafficStore traffic;
  QueueStore store;

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    traffic = new RedisTrafficStore(fixture.connector().commands(), keys, clock);
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  long record(long requests) {
    return traffic.record(queue, requests, policy).block();
  }

  boolean settled() {
    return traffic.settled(queue, policy).block();
  }

  @Test
  void recordSumsTheWindowAcrossCallsAndSeconds() {
    assertThat(record(10)).isEqualTo(10);
    assertThat(record(5)).isEqualTo(15);
    clock.advance(Duration.ofSeconds(1));
    assertThat(record(7)).isEqualTo(22);
    clock.advance(Duration.ofSeconds(1));
    assertThat(record(1)).isEqualTo(23);
  }

  @Test
  void recordDropsSecondsThatLeftTheWindowAndExpiresTheHash() {
    record(10);
    clock.advance(Duration.ofSeconds(3));

    assertThat(record(1)).isEqualTo(1);
    assertThat(sync.hkeys(keys.hits(queue)))
        .containsExactlyInAnyOrder(Long.toString(clock.millis() / 1000), "tidied");
    assertThat(sync.pttl(keys.hits(queue))).isBetween(10_000L, 11_000L);
  }

  @Test
  void recordLeavesSecondsOutOfTheWindowUncountedUntilTheNextTidyOneWindowLater() {
    long start = clock.millis() / 1000;
    record(10);
    clock.advance(Duration.ofSeconds(1));
    record(5);
    clock.advance(Duration.ofSeconds(2));
    assertThat(record(1)).as("the first second left the window; tidied now").isEqualTo(6);
    long ttlAfterTidy = sync.pttl(keys.hits(queue));
    clock.advance(Duration.ofSeconds(1));

    assertThat(record(1)).as("the second second left the window too").isEqualTo(2);
    assertThat(sync.hkeys(keys.hits(queue)))
        .as("kept until the next tidy, a window after the last")
        .containsExactlyInAnyOrder(
            Long.toString(start + 1), Long.toString(start + 3), Long.toString(start + 4), "tidied");
    assertThat(sync.pttl(keys.hits(queue))).isLessThanOrEqualTo(ttlAfterTidy);

    clock.advance(Duration.ofSeconds(2));
    assertThat(record(1)).isEqualTo(2);
    assertThat(sync.hkeys(keys.hits(queue)))
        .as("a window after the last tidy, the seconds out of it are dropped")
        .containsExactlyInAnyOrder(Long.toString(start + 4), Long.toString(start + 6), "tidied");
  }

  @Test
  void recordFromAnEarlierClockCountsInTheWindowWithoutDroppingNewerSeconds() {
    long start = clock.millis() / 1000;
    record(10);
    clock.advance(Duration.ofSeconds(1));
    record(10);
    clock.advance(Duration.ofSeconds(-1));

    assertThat(record(1)).isEqualTo(11);
    assertThat(sync.hkeys(keys.hits(queue)))
        .containsExactlyInAnyOrder(Long.toString(start), Long.toString(start + 1), "tidied");
  }

  @Test
  void settledOnlyAfterTheCoolDownOfEmptyQuietTraffic() {
    record(14);
    assertThat(settled()).isFalse();
    assertThat(sync.hget(keys.state(queue), "quiet-since"))
        .isEqualTo(Long.toString(clock.millis()));

    clock.advance(Duration.ofSeconds(9));
    assertThat(settled()).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(settled()).isTrue();
    assertThat(sync.hexists(keys.state(queue), "quiet-since")).isFalse();
  }

  @Test
  void settledQueueKeysExpireUnlessTheQueueIsOnAgain() {
    store.enqueue(queue, "v1", policy).block();
    store.release(queue, "v1").block();
    settled();
    clock.advance(Duration.ofSeconds(10));

    assertThat(settled()).isTrue();
    long ttl = policy.idleTimeToLive().toMillis();
    assertThat(sync.pttl(keys.state(queue))).isBetween(ttl - 5_000, ttl);
    assertThat(sync.pttl(keys.finished(queue))).isBetween(ttl - 5_000, ttl);

    store.expire(queue, policy).block();
    assertThat(sync.pttl(keys.state(queue))).isEqualTo(-1);
    assertThat(sync.pttl(keys.finished(queue))).isEqualTo(-1);
  }

  @Test
  void aQueueThatHoldsEveryoneIsSettledAtTheSecondCheckWithNobodyWaitingWhateverItsTraffic() {
    RoomPolicy queueAll = PolicyParser.apply("t", policy, Map.of("mode", "queue-all"));
    store.enqueue(queue, "v1", queueAll).block();
    record(1_000);
    assertThat(traffic.settled(queue, queueAll).block()).isFalse();

    assertThat(traffic.settled(queue, queueAll).block()).isTrue();
  }

  @Test
  void aQueueThatHoldsEveryoneStaysWhileSomeoneWaits() {
    RoomPolicy paused = PolicyParser.apply("t", policy, Map.of("mode", "paused"));
    store.enqueue(queue, "v1", paused).block();

    for (int check = 0; check < 3; check++) {
      assertThat(traffic.settled(queue, paused).block()).isFalse();
      clock.advance(Duration.ofMinutes(1));
    }
  }

  @Test
  void aSettledQueueIsReportedToTheRoomsIdleLines() {
    RedisIdleLines idle = new RedisIdleLines(fixture.connector().commands(), keys, clock, 10);
    TrafficStore reporting =
        new RedisTrafficStore(fixture.connector().commands(), keys, clock, idle);
    reporting.settled(queue, policy).block();
    clock.advance(Duration.ofSeconds(10));

    assertThat(reporting.settled(queue, policy).block()).isTrue();

    assertThat(sync.zrange(keys.idle("shop"), 0, -1)).containsExactly("42");
  }

  @Test
  void noTrafficAtAllIsQuietEvenWithALowerThresholdOfZero() {
    RoomPolicy zero = PolicyParser.apply("t", policy, Map.of("deactivate-below", "0"));
    traffic.settled(queue, zero).block();
    clock.advance(Duration.ofSeconds(10));

    assertThat(traffic.settled(queue, zero).block()).isTrue();
  }

  @Test
  void trafficAtTheLowerThresholdBreaksTheQuietSpell() {
    settled();
    clock.advance(Duration.ofSeconds(5));
    record(15);
    assertThat(settled()).isFalse();
    assertThat(sync.hexists(keys.state(queue), "quiet-since")).isFalse();

    clock.advance(Duration.ofSeconds(9));
    assertThat(settled()).isFalse();
    clock.advance(Duration.ofSeconds(10));
    assertThat(settled()).isTrue();
  }

  @Test
  void peopleInLineBreakTheQuietSpell() {
    settled();
    store.enqueue(queue, "v1", PolicyParser.apply("t", policy, Map.of("mode", "paused"))).block();
    clock.advance(Duration.ofSeconds(30));

    assertThat(settled()).isFalse();
    store.release(queue, "v1").block();
    assertThat(settled()).isFalse();
    clock.advance(Duration.ofSeconds(10));
    assertThat(settled()).isTrue();
  }

  @Test
  void hitsLiveInTheQueueSlot() {
    assertThat(io.lettuce.core.cluster.SlotHash.getSlot(keys.hits(queue)))
        .isEqualTo(io.lettuce.core.cluster.SlotHash.getSlot(keys.waiting(queue)));
  }
}
