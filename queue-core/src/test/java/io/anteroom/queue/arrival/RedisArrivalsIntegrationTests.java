package io.anteroom.queue.arrival;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisFixture;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** arrivals.lua and the stream's pages against a real Redis, on a clock moved by hand. */
class RedisArrivalsIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;
  RedisArrivals arrivals;

  @BeforeEach
  void setUp() {
    sync.flushall();
    clock = MutableClock.startingAt2026();
    arrivals = new RedisArrivals(fixture.connector().commands(), keys, clock);
  }

  long now() {
    return clock.millis();
  }

  RedisArrivals.Page all() {
    return arrivals.page("shop", 0, null, null, 1_000_000).block();
  }

  @Test
  void recordAddsEachArrivalInOrderWithItsItemTimeAndSampleUnderIdsOfTheFlush() {
    long t = now();
    RedisArrivals.Written written =
        arrivals
            .record(
                "shop",
                0.25,
                List.of(new Arrival(t - 900, "42"), new Arrival(t - 500, "_"), new Arrival(t, "7")))
            .block();

    assertThat(written).isEqualTo(new RedisArrivals.Written(3, 0));
    assertThat(all().arrivals())
        .containsExactly(
            new RecordedArrival(t + "-0", t - 900, "42", 0.25),
            new RecordedArrival(t + "-1", t - 500, "_", 0.25),
            new RecordedArrival(t + "-2", t, "7", 0.25));
    assertThat(keys.arrivals("shop")).isEqualTo("wr:{shop}:arrivals");
  }

  @Test
  void recordWhenTheStreamIsAheadOfTheClockThenIdsFollowItsLastEntry() {
    long t = now();
    arrivals.record("shop", 1, List.of(new Arrival(t, "1"))).block();
    clock.advance(Duration.ofMillis(-300)); // another gateway, slightly behind
    arrivals.record("shop", 1, List.of(new Arrival(t - 400, "2"))).block();

    assertThat(all().arrivals())
        .extracting(RecordedArrival::id)
        .containsExactly(t + "-0", t + "-1");
  }

  @Test
  void recordWhenAnArrivalIsOlderThanTheLatestDelayOrAheadOfTheFlushThenLeavesItOut() {
    long t = now();
    RedisArrivals.Written written =
        arrivals
            .record(
                "shop",
                1,
                List.of(
                    new Arrival(t - RedisArrivals.LATEST.toMillis() - 1, "old"),
                    new Arrival(t - RedisArrivals.LATEST.toMillis(), "oldest-kept"),
                    new Arrival(t + 1, "ahead")))
            .block();

    assertThat(written).isEqualTo(new RedisArrivals.Written(1, 2));
    assertThat(all().arrivals()).extracting(RecordedArrival::item).containsExactly("oldest-kept");
  }

  @Test
  void recordSetsTheStreamsTimeToLiveAndWithNothingRecordedLeavesNoKey() {
    arrivals.record("shop", 1, List.of(new Arrival(now() - 60_000, "1"))).block();
    assertThat(sync.exists(keys.arrivals("shop"))).isZero();

    arrivals.record("shop", 1, List.of(new Arrival(now(), "1"))).block();
    assertThat(sync.pttl(keys.arrivals("shop")))
        .isBetween(RedisArrivals.LIFE.toMillis() - 5_000, RedisArrivals.LIFE.toMillis());
  }

  @Test
  void recordBeyondTheBoundTrimsTheOldestEntries() {
    RedisArrivals bounded = new RedisArrivals(fixture.connector().commands(), keys, clock, 100);
    for (int flush = 0; flush < 10; flush++) {
      List<Arrival> batch = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        batch.add(new Arrival(now(), Integer.toString(flush)));
      }
      bounded.record("shop", 1, batch).block();
      clock.advance(Duration.ofSeconds(1));
    }

    long length = sync.xlen(keys.arrivals("shop"));
    // MAXLEN ~ trims whole nodes: about the bound stays, never the thousand written.
    assertThat(length).isBetween(100L, 300L);
    assertThat(all().arrivals().get(0).item()).isNotEqualTo("0");
    assertThat(all().arrivals().get((int) length - 1).item()).isEqualTo("9");
  }

  @Test
  void twoFlushesOfTheSameArrivalsRecordThemTwiceAsTheGatewayNeverSendsOneAgain() {
    List<Arrival> flush = List.of(new Arrival(now(), "1"));
    arrivals.record("shop", 1, flush).block();
    arrivals.record("shop", 1, flush).block();

    assertThat(all().arrivals()).hasSize(2);
  }

  @Test
  void aFlushLettuceSendsAgainIsRecordedOnce() {
    String[] keysOfTheCall = {keys.arrivals("shop"), keys.arrivalFlushes("shop")};
    String[] call = {
      Long.toString(now()), "1", "1000", "86400000", "10000", "flush-1", Long.toString(now()), "1"
    };
    ScriptRunner scripts = new ScriptRunner(fixture.connector().commands(), clock);

    List<Long> first =
        scripts
            .<List<Long>>run(QueueScripts.ARRIVALS, ScriptOutputType.MULTI, keysOfTheCall, call)
            .block();
    clock.advance(Duration.ofMillis(900));
    List<Long> again =
        scripts
            .<List<Long>>run(QueueScripts.ARRIVALS, ScriptOutputType.MULTI, keysOfTheCall, call)
            .block();

    assertThat(first).containsExactly(1L, 0L);
    assertThat(again).containsExactly(0L, 0L);
    assertThat(all().arrivals()).hasSize(1);
    assertThat(sync.pttl(keys.arrivalFlushes("shop"))).isBetween(1L, 60_000L);
  }

  @Test
  void pageReadsAfterAnIdUpToTheLastGivenAndSkipsEntriesThatAreNotArrivals() {
    long t = now();
    arrivals.record("shop", 0.5, List.of(new Arrival(t, "1"), new Arrival(t, "2"))).block();
    // Written by hand, as if by someone with access to Redis.
    String stream = keys.arrivals("shop");
    sync.xadd(stream, new XAddArgs().id(t + "-5"), Map.of("item", "a,b\n", "at", "1"));
    sync.xadd(stream, new XAddArgs().id(t + "-6"), Map.of("note", "by hand"));
    clock.advance(Duration.ofSeconds(1));
    arrivals.record("shop", 0.5, List.of(new Arrival(t + 1000, "3"))).block();

    RedisArrivals.Page first = arrivals.page("shop", t, null, null, 1).block();
    assertThat(first.arrivals()).extracting(RecordedArrival::item).containsExactly("1");
    assertThat(first.full()).isTrue();
    RedisArrivals.Page rest = arrivals.page("shop", t, first.last(), null, 10).block();
    assertThat(rest.arrivals()).extracting(RecordedArrival::item).containsExactly("2", "3");
    assertThat(rest.full()).isFalse();
    RedisArrivals.Page upTo = arrivals.page("shop", t, null, t + "-1", 10).block();
    assertThat(upTo.arrivals()).extracting(RecordedArrival::item).containsExactly("1", "2");
    assertThat(arrivals.page("shop", t + 1000, null, null, 10).block().arrivals())
        .extracting(RecordedArrival::item)
        .containsExactly("3");
  }
}
