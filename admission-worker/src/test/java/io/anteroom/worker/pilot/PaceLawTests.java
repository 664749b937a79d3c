package io.anteroom.worker.pilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.anteroom.queue.origin.OriginFigures;
import io.anteroom.queue.origin.PilotReading;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.policy.Autopilot;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.DoubleFunction;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The auto-pilot's control law, decision by decision, on a fixed clock. */
class PaceLawTests {

  static final Autopilot PILOT = new Autopilot(true, Duration.ofMillis(800), 0.05, 1);
  static final double MIN_SHARE = 0.02;
  static final long T0 = 1_800_000_000_000L;

  /** {@code answers} answers taking {@code millis} each, {@code bad} of them 5xx. */
  static OriginFigures figures(long answers, long bad, double millis) {
    Histogram latency = OriginFigures.histogram();
    latency.recordValueWithCount((long) (millis * 1000), answers - 0);
    return new OriginFigures(answers, bad, 0, latency);
  }

  static PilotReading reading(PilotState state, OriginFigures figures) {
    return new PilotReading(state, figures, 3, 0);
  }

  static PilotState at(double share, long at) {
    return new PilotState(share, at, "", 0, 0, at, share);
  }

  @Nested
  class Breach {

    @Test
    void aSlowOriginCutsTheShareByAFifth() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(1, T0), figures(100, 0, 1000)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.8);
      assertThat(next.reason()).isEqualTo("origin p95 1.0 s above the 800 ms target");
      assertThat(next.peak()).isEqualTo(1);
      assertThat(next.holdUntil()).isEqualTo(T0 + 1000 + PaceLaw.SETTLE.toMillis());
    }

    @Test
    void errorsAboveTheToleratedShareCutIt() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(1, T0), figures(100, 8, 100)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.8);
      assertThat(next.reason()).isEqualTo("origin errors 8.0 % above the 5.0 % tolerated");
    }

    @Test
    void moreThanTwiceTheBoundAfterACutHasSettledHalvesIt() {
      PilotState cut =
          PaceLaw.decide(PILOT, reading(at(1, T0), figures(100, 0, 1700)), T0 + 1000, MIN_SHARE);
      assertThat(cut.share()).isEqualTo(0.8);
      PilotState settling =
          PaceLaw.decide(
              PILOT, reading(cut, figures(100, 50, 10)), cut.holdUntil() - 1000, MIN_SHARE);

      PilotState next =
          PaceLaw.decide(
              PILOT, reading(settling, figures(100, 50, 10)), cut.holdUntil(), MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.4);
    }

    @Test
    void withinTwiceTheBoundAfterACutHasSettledCutsByAFifth() {
      PilotState cut =
          PaceLaw.decide(PILOT, reading(at(1, T0), figures(100, 0, 1000)), T0 + 1000, MIN_SHARE);
      PilotState settling =
          PaceLaw.decide(
              PILOT, reading(cut, figures(100, 0, 1000)), cut.holdUntil() - 1000, MIN_SHARE);

      PilotState next =
          PaceLaw.decide(
              PILOT, reading(settling, figures(100, 0, 1000)), cut.holdUntil(), MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.8 * 0.8);
    }

    @Test
    void aBreachWithinTheSettlingTimeOfTheLastCutHolds() {
      PilotState cut =
          PaceLaw.decide(PILOT, reading(at(1, T0), figures(100, 0, 1000)), T0 + 1000, MIN_SHARE);

      PilotState next =
          PaceLaw.decide(PILOT, reading(cut, figures(100, 0, 1000)), T0 + 2000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.8);
      assertThat(next.reason()).startsWith("backing off, waiting for the last step to show");
      PilotState later =
          PaceLaw.decide(PILOT, reading(next, figures(100, 0, 1000)), cut.holdUntil(), MIN_SHARE);
      assertThat(later.share()).isEqualTo(0.8 * 0.8);
    }

    @Test
    void neverBelowTheFloor() {
      PilotState next =
          PaceLaw.decide(
              PILOT, reading(at(0.022, T0), figures(100, 100, 10)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(MIN_SHARE);
    }
  }

  @Nested
  class Recovery {

    @Test
    void aHealthyOriginGrowsTheShareByAStep() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(0.5, T0), figures(100, 0, 100)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.55);
      assertThat(next.reason())
          .isEqualTo("origin healthy, recovering: origin p95 100 ms, errors 0 %");
    }

    @Test
    void belowThePeakItGrowsNoFurtherThanTheEdgeOfItsNeighbourhood() {
      PilotState state = new PilotState(0.42, T0, "", 0.5, 0, T0, 0.42);

      PilotState next =
          PaceLaw.decide(PILOT, reading(state, figures(100, 0, 100)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.45);
    }

    @Test
    void nearThePeakItGrowsByAFineStep() {
      PilotState state = new PilotState(0.5, T0, "", 0.52, 0, T0, 0.5);

      PilotState next =
          PaceLaw.decide(PILOT, reading(state, figures(100, 0, 100)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.51);
    }

    @Test
    void neverAboveTheConfiguredRates() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(0.98, T0), figures(100, 0, 100)), T0 + 1000, MIN_SHARE);
      assertThat(next.share()).isEqualTo(1);
      PilotState top =
          PaceLaw.decide(PILOT, reading(next, figures(100, 0, 100)), T0 + 2000, MIN_SHARE);
      assertThat(top.share()).isEqualTo(1);
      assertThat(top.reason()).isEqualTo("at the configured rate: origin p95 100 ms, errors 0 %");
    }

    @Test
    void nearTheTargetItHolds() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(0.5, T0), figures(100, 0, 700)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.5);
      assertThat(next.reason())
          .isEqualTo("holding: origin p95 700 ms, errors 0 %, near the 800 ms target");
    }
  }

  @Nested
  class WithoutFigures {

    @Test
    void tooFewAnswersHoldTheShare() {
      PilotState next =
          PaceLaw.decide(PILOT, reading(at(0.4, T0), figures(9, 9, 5000)), T0 + 1000, MIN_SHARE);

      assertThat(next.share()).isEqualTo(0.4);
      assertThat(next.seen()).isEqualTo(T0);
      assertThat(next.reason()).isEqualTo("holding: too few answers from the origin to measure");
    }

    @Test
    void afterTheBlindHoldItRecoversByFineSteps() {
      long later = T0 + PaceLaw.BLIND_HOLD.toMillis();

      PilotState next =
          PaceLaw.decide(
              PILOT,
              reading(new PilotState(0.4, later - 1000, "", 0, 0, T0, 0.4), OriginFigures.none()),
              later,
              MIN_SHARE);

      assertThat(next.share()).isCloseTo(0.41, within(1e-9));
    }

    @Test
    void aStateLeftForAMinuteIsForgotten() {
      long later = T0 + PaceLaw.STALE.toMillis() + 1;

      PilotState next =
          PaceLaw.decide(PILOT, reading(at(0.1, T0), OriginFigures.none()), later, MIN_SHARE);

      assertThat(next.share()).isEqualTo(1);
    }
  }

  /**
   * An origin that serves 60 % of the configured rate well and slows down past it, read as the
   * workers read it: each decision sees the figures of the shares decided {@code lag} seconds
   * before.
   */
  @Nested
  class AroundASteadyOrigin {

    static final double CAPACITY = 0.6;

    /**
     * p95 of an origin at {@code share}: 200 ms up to its capacity, then 100 ms more per point
     * above (the 800 ms target at 66 %).
     */
    final DoubleFunction<Double> origin =
        share -> share <= CAPACITY ? 200 : 200 + 10_000 * (share - CAPACITY);

    List<Double> run(int decisions, int lag) {
      Deque<Double> admitted = new ArrayDeque<>();
      PilotState state = PilotState.START;
      List<Double> shares = new ArrayList<>();
      for (int i = 1; i <= decisions; i++) {
        long now = T0 + i * 1000L;
        admitted.addLast(state.share());
        double seen = admitted.size() > lag ? admitted.removeFirst() : 1;
        state =
            PaceLaw.decide(
                PILOT, reading(state, figures(200, 0, origin.apply(seen))), now, MIN_SHARE);
        shares.add(state.share());
      }
      return shares;
    }

    @Test
    void backsOffWithinAFewDecisionsOfTheBreach() {
      List<Double> shares = run(10, 3);

      assertThat(shares.get(0)).isLessThan(1);
      assertThat(shares.subList(0, 10)).allMatch(share -> share <= 1);
    }

    @Test
    void staysWithinAFifthAroundItsMean() {
      for (int lag : new int[] {1, 2, 3, 4, 5, 6}) {
        List<Double> steady = run(600, lag).subList(200, 600);
        double mean = steady.stream().mapToDouble(d -> d).average().orElseThrow();

        assertThat(steady)
            .as("lag %d s, mean %.3f", lag, mean)
            .allMatch(share -> share >= 0.8 * mean && share <= 1.2 * mean);
        // The origin crosses the 800 ms target at 66 %.
        assertThat(mean).as("lag %d s", lag).isBetween(0.45, 0.7);
      }
    }
  }
}
