package io.anteroom.queue.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisFixture;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The history script against a real Redis with a clock moved by hand. */
class RedisRoomHistoryIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;
  RoomHistory history;

  @BeforeEach
  void setUp() {
    sync.flushall();
    clock = MutableClock.startingAt2026();
    history = new RedisRoomHistory(fixture.connector().commands(), keys, clock);
  }

  boolean record(long waiting, long admitted) {
    return history.record("shop", new HistorySample(0, waiting, 2, 3, admitted)).block();
  }

  long slot() {
    long interval = RoomHistory.INTERVAL.toMillis();
    return clock.millis() - clock.millis() % interval;
  }

  @Test
  void keepsTheFirstSampleOfEachIntervalAtTheIntervalsStart() {
    clock.advance(Duration.ofMillis(1234));
    long first = slot();
    assertThat(record(10, 100)).isTrue();
    clock.advance(Duration.ofMillis(100));
    assertThat(record(11, 101)).isFalse();
    clock.advance(RoomHistory.INTERVAL);
    long second = slot();
    assertThat(record(12, 150)).isTrue();

    assertThat(history.recent("shop").block())
        .containsExactly(
            new HistorySample(first, 10, 2, 3, 100), new HistorySample(second, 12, 2, 3, 150));
  }

  @Test
  void samplesOlderThanTheSpanAreTrimmedAndTheKeyExpires() {
    record(1, 1);
    clock.advance(RoomHistory.SPAN.plus(RoomHistory.INTERVAL));
    record(2, 2);

    assertThat(history.recent("shop").block())
        .extracting(HistorySample::waiting)
        .containsExactly(2L);
    assertThat(sync.zcard(keys.history("shop"))).isEqualTo(1);
    assertThat(sync.pttl(keys.history("shop")))
        .isPositive()
        .isLessThanOrEqualTo(RoomHistory.SPAN.multipliedBy(2).toMillis());
  }

  @Test
  void roomsKeepSeparateHistories() {
    record(5, 5);
    history.record("fair", new HistorySample(0, 7, 0, 0, 9)).block();

    assertThat(history.recent("shop").block())
        .extracting(HistorySample::waiting)
        .containsExactly(5L);
    assertThat(history.recent("fair").block())
        .extracting(HistorySample::waiting)
        .containsExactly(7L);
  }

  @Test
  void membersWrittenByHandThatAreNoSamplesAreSkipped() {
    record(5, 5);
    sync.zadd(keys.history("shop"), clock.millis(), "not:a:sample");

    assertThat(history.recent("shop").block())
        .extracting(HistorySample::waiting)
        .containsExactly(5L);
  }

  @Test
  void anEmptyRoomHasNoHistory() {
    assertThat(history.recent("shop").block()).isEmpty();
  }
}
