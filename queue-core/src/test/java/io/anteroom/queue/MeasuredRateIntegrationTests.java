package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The measured admission rate kept by admit.lua, with a clock moved by hand. */
class MeasuredRateIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("rate", "1");
  MutableClock clock;
  QueueStore store;

  /** 10 per second, bucket of 10, room for 10 000. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          10_000,
          Duration.ofMinutes(10),
          Duration.ofMinutes(10),
          500,
          Duration.ofMinutes(10));

  @BeforeEach
  void setUp() {
    sync.flushall();
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  /** Puts {@code count} visitors in line behind an empty bucket. */
  void line(int count) {
    sync.hset(keys.state(queue), "tokens", "0");
    sync.hset(keys.state(queue), "refill", Long.toString(clock.millis()));
    for (int i = 0; i < count; i++) {
      store.enqueue(queue, "v" + i, POLICY).block();
    }
  }

  /** Admits every {@code tickMs} for {@code ms}. */
  void admitFor(long ms, long tickMs) {
    for (long t = 0; t < ms; t += tickMs) {
      clock.advance(Duration.ofMillis(tickMs));
      store.admit(queue, POLICY).block();
    }
  }

  double measured() {
    return store.enqueue(queue, "probe", POLICY).block().measuredRate();
  }

  @Test
  void rateIsUnknownBeforeAnySample() {
    line(5);

    assertThat(measured()).isZero();
    assertThat(store.status(queue, "v0").block().measuredRate()).isZero();
  }

  @Test
  void rateAfterOneSecondAlreadyMatchesTheAdmissionsWithoutStartupBias() {
    line(1000);
    store.admit(queue, POLICY).block();

    admitFor(1000, 250);

    // 2, 3, 2, 3 admissions in four quarter seconds: ten in one second, not diluted by the start.
    assertThat(measured()).isCloseTo(10, within(0.6));
    assertThat(store.status(queue, "v999").block().measuredRate()).isCloseTo(10, within(0.6));
  }

  @Test
  void rateFollowsAChangeWithinAFewTimeConstants() {
    line(5000);
    store.admit(queue, POLICY).block();
    admitFor(60_000, 250);
    assertThat(measured()).isCloseTo(10, within(0.3));

    RoomPolicy slower =
        new RoomPolicy(
            4,
            POLICY.admitBurst(),
            POLICY.maxActive(),
            POLICY.sessionDuration(),
            POLICY.abandonAfter(),
            POLICY.admitBatch(),
            POLICY.finishedRetention());
    for (int i = 0; i < 120 * 4; i++) {
      clock.advance(Duration.ofMillis(250));
      store.admit(queue, slower).block();
    }

    // Two minutes at 4 per second: the old 10 weighs e^-4 (under 2 %).
    assertThat(measured()).isCloseTo(4, within(0.3));
  }

  @Test
  void aLineThatDrainsIsNotSampled() {
    line(1);
    store.admit(queue, POLICY).block();

    // Each call empties the line: nothing is learnt, however many were admitted.
    for (int i = 0; i < 20; i++) {
      clock.advance(Duration.ofMillis(250));
      store.enqueue(queue, "late" + i, POLICY).block();
      store.admit(queue, POLICY).block();
    }

    assertThat(sync.zcard(keys.waiting(queue))).isZero();
    assertThat(sync.hget(keys.state(queue), "rate-weight")).isEqualTo("0.000");
    assertThat(measured()).isZero();
  }

  @Test
  void aGapOverTenSecondsIsNotSampled() {
    line(1000);
    store.admit(queue, POLICY).block();
    admitFor(5000, 250);

    // A paused queue or a stopped worker: no call for 20 s, then a full bucket at once.
    clock.advance(Duration.ofSeconds(20));
    store.admit(queue, POLICY).block();
    admitFor(1000, 250);

    assertThat(measured()).isCloseTo(10, within(0.6));
  }

  @Test
  void aRepeatedCallAddsNoSampledTime() {
    line(1000);
    store.admit(queue, POLICY).block();
    admitFor(2000, 250);
    String weight = sync.hget(keys.state(queue), "rate-weight");
    double before = measured();

    store.admit(queue, POLICY).block();

    assertThat(sync.hget(keys.state(queue), "rate-weight")).isEqualTo(weight);
    assertThat(measured()).isEqualTo(before);
  }

  @Test
  void anOldMeasurementFadesToUnknown() {
    line(1000);
    store.admit(queue, POLICY).block();
    admitFor(5000, 250);
    assertThat(measured()).isPositive();

    clock.advance(Duration.ofMinutes(3));

    assertThat(measured()).isZero();
  }

  @Test
  void slotsLimitTheMeasuredRateBelowTheConfiguredOne() {
    RoomPolicy capped =
        new RoomPolicy(
            10,
            POLICY.admitBurst(),
            2,
            POLICY.sessionDuration(),
            POLICY.abandonAfter(),
            POLICY.admitBatch(),
            POLICY.finishedRetention());
    line(1000);
    store.admit(queue, capped).block();
    for (int i = 0; i < 40; i++) {
      clock.advance(Duration.ofMillis(250));
      // One session ends every half second: the line moves at 2 per second, not 10.
      if (i % 2 == 1) {
        sync.zpopmin(keys.running(queue));
      }
      store.admit(queue, capped).block();
    }

    assertThat(measured()).isCloseTo(2, within(0.3));
  }

  @Test
  void measuredRateReadAloneIsTheFigureVisitorsAreGivenAndChangesNothing() {
    line(1000);
    store.admit(queue, POLICY).block();
    admitFor(1000, 250);
    Map<String, String> state = sync.hgetall(keys.state(queue));

    double alone = store.measuredRate(queue).block();

    assertThat(alone).isCloseTo(10, within(0.6));
    assertThat(sync.hgetall(keys.state(queue))).isEqualTo(state);
    assertThat(alone).isEqualTo(store.status(queue, "v999").block().measuredRate());
  }

  @Test
  void measuredRateOfAQueueNeverAdmittedFromIsUnknown() {
    assertThat(store.measuredRate(queue).block()).isZero();
    line(5);
    assertThat(store.measuredRate(queue).block()).isZero();
  }
}
