package io.anteroom.gateway.origin;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OriginWatchTests {

  final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T10:00:00.100Z"));
  final OriginWatch watch = new OriginWatch(Set.of("shop"), clock);

  @Test
  void oneVisitorWeighsAtMostFourAnswersOfASecond() {
    for (int i = 0; i < 50; i++) {
      watch.sample("shop", "script", OriginMeters.Outcome.SUCCESS, 3_000_000_000L);
    }
    for (int i = 0; i < 3; i++) {
      watch.sample("shop", "browser-" + i, OriginMeters.Outcome.SUCCESS, 20_000_000L);
    }

    assertThat(watch.take("shop").answers()).isEqualTo(OriginWatch.PER_VISITOR + 3);
  }

  @Test
  void theAllowanceComesBackTheNextSecond() {
    for (int i = 0; i < 10; i++) {
      watch.sample("shop", "script", OriginMeters.Outcome.ERROR, 0);
    }
    clock.advance(Duration.ofSeconds(1));
    for (int i = 0; i < 10; i++) {
      watch.sample("shop", "script", OriginMeters.Outcome.ERROR, 0);
    }

    assertThat(watch.take("shop").failures()).isEqualTo(2L * OriginWatch.PER_VISITOR);
  }

  @Test
  void anUnknownRoomRecordsNothing() {
    watch.sample("elsewhere", "script", OriginMeters.Outcome.SUCCESS, 1);

    assertThat(watch.take("elsewhere").answers()).isZero();
  }
}
