package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.anteroom.queue.TrafficStore.Hits;
import io.anteroom.queue.TrafficStore.WindowTotal;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    return traffic.record(List.of(new Hits(queue, requests, policy))).single().block().requests();
  }

  /** Script calls Redis has run so far, by SHA or with their source. */
  long scriptCalls() {
    Matcher calls = SCRIPT_CALLS.matcher(sync.info("commandstats"));
    long total = 0;
    while (calls.find()) {
      total += Long.parseLong(calls.group(1));
    }
    return total;
  }

  static final Pattern SCRIPT_CALLS = Pattern.compile("cmdstat_eval(?:sha)?:calls=(\\d+)");

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
  void recordCountsEachQueueOfOneCallInItsOwnHashAndWindow() {
    QueueId other = QueueId.of("shop", "43");
    QueueId elsewhere = QueueId.of("hall", "a");
    RoomPolicy wide = PolicyParser.apply("t", policy, Map.of("activation-window", "10s"));
    record(4);
    clock.advance(Duration.ofSeconds(5));

    List<WindowTotal> totals =
        traffic
            .record(
                List.of(
                    new Hits(queue, 10, policy),
                    new Hits(other, 20, policy),
                    new Hits(elsewhere, 30, wide)))
            .collectList()
            .block();

    assertThat(totals)
        .extracting(t -> t.hits().queue(), WindowTotal::requests)
        .containsExactlyInAnyOrder(tuple(queue, 10L), tuple(other, 20L), tuple(elsewhere, 30L));
    assertThat(sync.hget(keys.hits(other), Long.toString(clock.millis() / 1000))).isEqualTo("20");
    assertThat(sync.pttl(keys.hits(queue))).isBetween(10_000L, 11_000L);
    assertThat(sync.pttl(keys.hits(elsewhere))).isBetween(24_000L, 25_000L);
  }

  @Test
  void aThousandQueuesAreCountedInOneRoundTrip() {
    record(1);
    List<Hits> hits = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      hits.add(new Hits(QueueId.of("shop", "item-" + i), i + 1, policy));
    }
    long before = scriptCalls();

    List<WindowTotal> totals = traffic.record(hits).collectList().block();

    assertThat(scriptCalls() - before).isEqualTo(1);
    assertThat(totals).hasSize(1_000).allMatch(t -> t.requests() == t.hits().requests());
  }

  @Test
  void recordingNothingSendsNothing() {
    record(1);
    long before = scriptCalls();

    assertThat(traffic.record(List.of()).collectList().block()).isEmpty();
    assertThat(scriptCalls()).isEqualTo(before);
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

    clock.advance(Duration.ofSeconds(1));
    store.expire(queue, policy).block();
    assertThat(sync.pttl(keys.state(queue))).isEqualTo(-1);
    assertThat(sync.pttl(keys.finished(queue))).isEqualTo(-1);
  }

  @Test
  void anExpirySentBeforeTheQueueWasSettledLeavesItsKeysTheirTimeToLive() {
    store.enqueue(queue, "v1", policy).block();
    store.release(queue, "v1").block();
    settled();
    clock.advance(Duration.ofSeconds(10));
    assertThat(settled()).isTrue();

    // Lettuce sends again an expire.lua call whose reply a dropped connection lost: it was sent
    // before the settle, with that earlier now.
    clock.advance(Duration.ofMillis(-300));
    store.expire(queue, policy).block();

    long ttl = policy.idleTimeToLive().toMillis();
    assertThat(sync.pttl(keys.state(queue))).isBetween(ttl - 5_000, ttl);
    assertThat(sync.pttl(keys.finished(queue))).isBetween(ttl - 5_000, ttl);
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
        new RedisTrafficStore(fixture.connector().commands(), keys, clock, idle, false);
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
