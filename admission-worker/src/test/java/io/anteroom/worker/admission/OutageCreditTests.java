package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How long waiting visitors may stay silent, before, during and after an outage. */
class OutageCreditTests {

  static final Duration TICK = Duration.ofMillis(250);

  final MutableClock clock = MutableClock.startingAt2026();
  final OutageCredit credit = new OutageCredit(clock, TICK);
  final RoomPolicy policy = RoomPolicy.DEFAULTS.withAbandonAfter(Duration.ofSeconds(30));

  @Test
  void readsEveryTickGiveNoCredit() {
    credit.started();
    for (int i = 0; i < 10; i++) {
      clock.advance(TICK);
      credit.reached();
    }
    assertThat(credit.extraMs(policy)).isZero();
  }

  @Test
  void aGapAddsItsLengthUntilAbandonAfterHasPassedSinceTheRecovery() {
    credit.started();
    clock.advance(TICK);
    credit.reached();

    clock.advance(Duration.ofSeconds(45));
    credit.reached();

    assertThat(policy.abandonAfter().plusMillis(credit.extraMs(policy)))
        .isEqualTo(Duration.ofSeconds(75));
    clock.advance(Duration.ofSeconds(29));
    assertThat(policy.abandonAfter().plusMillis(credit.extraMs(policy)))
        .isEqualTo(Duration.ofSeconds(75));
    clock.advance(Duration.ofSeconds(1));
    assertThat(credit.extraMs(policy)).isZero();
  }

  @Test
  void lateTicksOfABusyMachineAreNoOutage() {
    credit.started();
    for (int i = 0; i < 10; i++) {
      clock.advance(Duration.ofMillis(900));
      credit.reached();
    }
    assertThat(credit.extraMs(policy)).isZero();
  }

  @Test
  void anOutageBeforeTheFirstReadCountsFromTheStart() {
    credit.started();
    clock.advance(Duration.ofSeconds(40));
    credit.reached();

    assertThat(policy.abandonAfter().plusMillis(credit.extraMs(policy)))
        .isEqualTo(Duration.ofSeconds(70));
  }

  @Test
  void aPromptFirstReadIsNoOutage() {
    credit.started();
    clock.advance(TICK);
    credit.reached();

    assertThat(credit.extraMs(policy)).isZero();
  }
}
