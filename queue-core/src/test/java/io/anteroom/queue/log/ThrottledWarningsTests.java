package io.anteroom.queue.log;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ThrottledWarningsTests {

  final MutableClock clock = MutableClock.startingAt2026();
  final Logger logger = (Logger) LoggerFactory.getLogger("throttled-test");
  final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  ThrottledWarnings warnings;

  @BeforeEach
  void setUp() {
    lines.start();
    logger.addAppender(lines);
    warnings = new ThrottledWarnings(logger, clock, Duration.ofSeconds(10));
  }

  @Test
  void repeatsWithinTheIntervalAreSuppressedAndCountedInTheNextLine() {
    warnings.warn("room-a", "down: {}", "first");
    warnings.warn("room-a", "down: {}", "second");
    warnings.warn("room-a", "down: {}", "third");
    clock.advance(Duration.ofSeconds(10));
    warnings.warn("room-a", "down: {}", "fourth");

    assertThat(lines.list)
        .extracting(ILoggingEvent::getFormattedMessage)
        .containsExactly("down: first", "down: fourth (2 similar warnings suppressed)");
  }

  @Test
  void subjectsAreThrottledApart() {
    warnings.warn("room-a", "down {}", "a");
    warnings.warn("room-b", "down {}", "b");

    assertThat(lines.list).hasSize(2);
  }
}
