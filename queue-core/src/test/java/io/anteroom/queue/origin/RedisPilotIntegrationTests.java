package io.anteroom.queue.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisFixture;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The auto-pilot's reports, reading and steps against a real Redis. */
class RedisPilotIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  RedisPilot pilot;

  static final long SECOND = 1_800_000_000L;
  static final long NOW = SECOND * 1000;

  @BeforeEach
  void setUp() {
    sync.flushall();
    pilot = new RedisPilot(fixture.connector().commands(), keys, MutableClock.startingAt2026());
  }

  /** {@code answers} answers of {@code millis} each, of which 5xx and failures as given. */
  static OriginFigures figures(long answers, long serverErrors, long failures, long millis) {
    Histogram latency = OriginFigures.histogram();
    latency.recordValueWithCount(millis * 1000, answers - failures);
    return new OriginFigures(answers, serverErrors, failures, latency);
  }

  @Test
  void readsTheSumOfEveryGatewaysReportsOverTheWindow() {
    pilot.report("shop", SECOND - 3, "gw-a", figures(90, 0, 0, 100)).block();
    pilot.report("shop", SECOND - 2, "gw-a", figures(90, 0, 0, 100)).block();
    pilot.report("shop", SECOND - 2, "gw-b", figures(10, 5, 5, 2000)).block();
    pilot.report("shop", SECOND, "gw-a", figures(1000, 1000, 0, 9000)).block();
    pilot.report("other", SECOND - 2, "gw-a", figures(1000, 1000, 0, 9000)).block();

    PilotReading reading = pilot.read("shop", SECOND - 4, SECOND - 1).block();

    assertThat(reading.reports()).isEqualTo(3);
    assertThat(reading.figures().answers()).isEqualTo(190);
    assertThat(reading.figures().errorShare()).isEqualTo(10 / 190.0);
    // 180 of the 185 timed answers took 100 ms: the p95 is theirs; the slowest are 2 s.
    assertThat(reading.figures().percentileMillis(95)).isBetween(99.0, 101.0);
    assertThat(reading.figures().latency().getMaxValue() / 1000).isBetween(1990L, 2010L);
    assertThat(reading.state()).isEqualTo(PilotState.START);
  }

  @Test
  void aReportReplacesTheSameGatewaysReportOfTheSameSecond() {
    pilot.report("shop", SECOND, "gw-a", figures(90, 0, 0, 100)).block();
    pilot.report("shop", SECOND, "gw-a", figures(10, 0, 0, 100)).block();

    assertThat(pilot.read("shop", SECOND, SECOND).block().figures().answers()).isEqualTo(10);
  }

  @Test
  void reportsExpireSoonAfterTheWorkersReadThem() {
    pilot.report("shop", SECOND, "gw-a", figures(90, 0, 0, 100)).block();

    assertThat(sync.pttl(keys.origin("shop", SECOND)))
        .isBetween(1L, RedisPilot.REPORT_LIFE.toMillis());
  }

  @Test
  void aReportNotWrittenByAGatewayIsSkippedAndCounted() {
    pilot.report("shop", SECOND, "gw-a", figures(90, 0, 0, 100)).block();
    sync.hset(keys.origin("shop", SECOND), "gw-x", "12:0:0:not-a-histogram");
    sync.hset(keys.origin("shop", SECOND), "gw-y", "5:9:0:");

    PilotReading reading = pilot.read("shop", SECOND, SECOND).block();

    assertThat(reading.unreadable()).isEqualTo(2);
    assertThat(reading.reports()).isEqualTo(1);
    assertThat(reading.figures().answers()).isEqualTo(90);
  }

  @Test
  void decodingRefusesCountsThatDoNotAddUp() {
    assertThatThrownBy(
            () -> OriginFigures.decode("5:4:3:" + figures(1, 0, 0, 1).encode().split(":")[3]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("counts out of range");
  }

  @Test
  void aStepIsTakenOnceByTheWorkersThatReadTheSameState() {
    PilotState read = pilot.read("shop", SECOND, SECOND).block().state();
    PilotState mine =
        new PilotState(
            0.8, NOW, "origin p95 1.0 s above the 800 ms target", 1, NOW + 8000, NOW, 0.8);
    PilotState theirs = new PilotState(0.5, NOW + 1, "other", 1, NOW + 8000, NOW, 0.5);

    assertThat(pilot.step("shop", read, mine).block()).isTrue();
    assertThat(pilot.step("shop", read, theirs).block()).isFalse();

    assertThat(pilot.state("shop").block()).isEqualTo(mine);
    assertThat(pilot.changes("shop", 5).block())
        .extracting(PilotState::share, PilotState::at, PilotState::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                0.8, NOW, "origin p95 1.0 s above the 800 ms target"));
  }

  @Test
  void aRepeatedStepChangesNothing() {
    PilotState next = PilotState.START.next(NOW, 0.8, "cut");
    assertThat(pilot.step("shop", PilotState.START, next).block()).isTrue();

    assertThat(pilot.step("shop", PilotState.START, next).block()).isFalse();

    assertThat(pilot.changes("shop", 5).block()).hasSize(1);
  }

  @Test
  void onlyChangesOfShareAreLoggedAndTheLogIsBounded() {
    PilotState state = PilotState.START;
    for (int i = 1; i <= RedisPilot.CHANGES_KEPT + 10; i++) {
      PilotState next = state.next(NOW + i * 1000L, i % 2 == 0 ? 0.5 : 0.9, "step " + i);
      assertThat(pilot.step("shop", state, next).block()).isTrue();
      PilotState same = next.next(NOW + i * 1000L + 500, next.share(), "held");
      assertThat(pilot.step("shop", next, same).block()).isTrue();
      state = same;
    }

    assertThat(sync.llen(keys.pilotLog("shop"))).isEqualTo(RedisPilot.CHANGES_KEPT);
    assertThat(pilot.changes("shop", 1).block().get(0).reason())
        .isEqualTo("step " + (RedisPilot.CHANGES_KEPT + 10));
    assertThat(sync.pttl(keys.pilot("shop"))).isPositive();
    assertThat(sync.pttl(keys.pilotLog("shop"))).isPositive();
  }

  @Test
  void aStateNotWrittenByAWorkerReadsAsTheConfiguredRatesFromItsDecisionTime() {
    sync.hset(keys.pilot("shop"), java.util.Map.of("share", "7", "at", Long.toString(NOW)));

    PilotState state = pilot.state("shop").block();

    assertThat(state.share()).isEqualTo(1);
    assertThat(state.at()).isEqualTo(NOW);
    assertThat(pilot.step("shop", state, state.next(NOW + 1000, 0.9, "cut")).block()).isTrue();
  }
}
