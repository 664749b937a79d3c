package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.status.WaitingPage;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitingViewTests {

  final RoomPolicy tenPerSecond =
      PolicyParser.apply(
          "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "10", "abandon-after", "90s"));

  static Line.Outcome waitingAt(long position, double measuredRate, long startsIn) {
    return Line.Outcome.waiting("v", position, position, startsIn, measuredRate);
  }

  @Test
  void aWaitingVisitorGetsTheRangeFromTheMeasuredRate() {
    WaitingView view =
        WaitingView.of(waitingAt(300, 2, 0), tenPerSecond, tenPerSecond.admitPerSecond());

    assertThat(view.etaMinSeconds()).isEqualTo(120);
    assertThat(view.etaMaxSeconds()).isEqualTo(180);
    assertThat(view.etaSeconds()).isEqualTo(150);
    assertThat(view.toJson())
        .contains("\"etaSeconds\":150,\"etaMinSeconds\":120,\"etaMaxSeconds\":180,");
    assertThat(new WaitingPage().render("shop", view)).contains("about 2\u20133 minutes");
  }

  @Test
  void pausedAndPreQueueCarryNoEstimate() {
    RoomPolicy paused = PolicyParser.apply("x", tenPerSecond, Map.of("mode", "paused"));

    WaitingView pausedView = WaitingView.of(waitingAt(300, 2, 0), paused, paused.admitPerSecond());
    WaitingView preQueue =
        WaitingView.of(waitingAt(300, 0, 120), tenPerSecond, tenPerSecond.admitPerSecond());

    assertThat(pausedView.state()).isEqualTo(WaitingView.State.PAUSED);
    assertThat(preQueue.state()).isEqualTo(WaitingView.State.PRE_QUEUE);
    for (WaitingView view : new WaitingView[] {pausedView, preQueue}) {
      assertThat(view.toJson())
          .contains("\"etaSeconds\":0,\"etaMinSeconds\":0,\"etaMaxSeconds\":0");
      assertThat(new WaitingPage().render("shop", view)).contains(">not known yet<");
    }
    assertThat(preQueue.pollAfterSeconds()).isLessThanOrEqualTo(120);
  }

  @Test
  void theFrontOfTheLineNeverReadsZero() {
    WaitingView view =
        WaitingView.of(waitingAt(1, 50, 0), tenPerSecond, tenPerSecond.admitPerSecond());

    assertThat(view.etaMinSeconds()).isEqualTo(1);
    assertThat(view.etaSeconds()).isEqualTo(1);
    assertThat(new WaitingPage().render("shop", view)).contains("less than a minute");
  }

  @Test
  void thePageScriptGetsTheHiddenTabCeilingOfAThirdOfTheAbandonTimeout() {
    WaitingView view =
        WaitingView.of(waitingAt(300, 2, 0), tenPerSecond, tenPerSecond.admitPerSecond());

    assertThat(view.pollCeilingSeconds()).isEqualTo(30);
    assertThat(new WaitingPage().render("shop", view))
        .contains("var ceiling = 30;")
        .contains("Math.min(seconds * 2, ceiling * (0.8 + 0.2 * Math.random()))")
        .contains("addEventListener(\"visibilitychange\"");
  }

  @Test
  void aNewcomerFarBackAsksWithinTheFirstPollSoThatComingBackOnceKeepsThePlace() {
    RoomPolicy slow = PolicyParser.apply("x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "1"));
    Line.Outcome joined =
        Line.Outcome.joined(
            "v", new io.anteroom.queue.EnqueueResult(false, 5000, 5000, false, true), 0);

    WaitingView newcomer = WaitingView.of(joined, slow, slow.admitPerSecond());
    WaitingView laterPoll = WaitingView.of(waitingAt(5000, 0, 0), slow, slow.admitPerSecond());

    assertThat(newcomer.pollAfterSeconds()).isLessThanOrEqualTo(PollSchedule.FIRST_POLL_SECONDS);
    assertThat(laterPoll.pollAfterSeconds()).isGreaterThan(PollSchedule.FIRST_POLL_SECONDS);
    assertThat(2 * PollSchedule.FIRST_POLL_SECONDS)
        .as("even a hidden tab, which waits twice as long, comes back in time")
        .isLessThan(RoomPolicy.FIRST_RETURN.toSeconds());
  }
}
