package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReleasedSessionsTests {

  final MutableClock clock = MutableClock.startingAt2026();
  final QueueId queue = QueueId.of("shop", "1");
  final ReleasedSessions ends = new ReleasedSessions(clock, 8);

  @Test
  void endedWhenFarFewerThanTheBoundThenEachIsKeptAndNothingIsForgotten() {
    long start = clock.millis();
    ends.ended(queue, "a", Duration.ofSeconds(33));
    clock.advance(Duration.ofSeconds(1));
    ends.ended(queue, "b", Duration.ofSeconds(33));

    assertThat(ends.endedAt(queue, "a")).isEqualTo(start);
    assertThat(ends.endedAt(queue, "b")).isEqualTo(start + 1000);
    assertThat(ends.endedAt(QueueId.of("shop", "2"), "a")).isEqualTo(Long.MIN_VALUE);
    assertThat(ends.mayHaveForgotten(start - 1000)).isFalse();
  }

  @Test
  void endedWhenFullOfEndsPastTheirTimeThenThoseGoAndNothingIsForgotten() {
    long start = clock.millis();
    for (int i = 0; i < 8; i++) {
      ends.ended(queue, "old-" + i, Duration.ofSeconds(33));
    }
    clock.advance(Duration.ofSeconds(33));

    ends.ended(queue, "new", Duration.ofSeconds(33));

    assertThat(ends.size()).isEqualTo(1);
    assertThat(ends.endedAt(queue, "old-0")).isEqualTo(Long.MIN_VALUE);
    assertThat(ends.mayHaveForgotten(start)).isFalse();
  }

  @Test
  void endedWhenFullOfEndsStillKeptThenTheOldestAreForgottenAndPassesBeforeThemMayHaveEnded() {
    long start = clock.millis();
    for (int i = 0; i < 9; i++) {
      ends.ended(queue, "v" + i, Duration.ofSeconds(33));
      clock.advance(Duration.ofMillis(10));
    }

    assertThat(ends.size()).isEqualTo(6);
    assertThat(ends.endedAt(queue, "v2")).isEqualTo(Long.MIN_VALUE);
    assertThat(ends.endedAt(queue, "v3")).isEqualTo(start + 30);
    assertThat(ends.mayHaveForgotten(start + 20)).as("confirmed before v2's end").isTrue();
    assertThat(ends.mayHaveForgotten(start + 21)).as("confirmed after it").isFalse();
  }
}
