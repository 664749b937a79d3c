package io.anteroom.queue.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A machine clock two minutes off, corrected to a real Redis's clock. The Redis runs on this
 * machine, so its clock is this machine's: corrected, the time is the system time to within the
 * round trip (a generous 200 ms here, for a loaded machine, plus the pause where a test makes Redis
 * slow).
 */
class RedisTimeIntegrationTests {

  static final Duration SKEW = Duration.ofMinutes(2);
  static final long CLOSE_MS = 200;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  RedisConnector connector;

  @BeforeEach
  void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 100));
  }

  @AfterEach
  void close() {
    connector.close();
  }

  static RedisTime skewed(Duration skew) {
    return new RedisTime(Clock.offset(Clock.systemUTC(), skew));
  }

  static long off(Clock clock) {
    return clock.millis() - System.currentTimeMillis();
  }

  @Test
  void beforeTheFirstMeasurementTheTimeIsTheMachines() {
    RedisTime time = skewed(SKEW);

    assertThat(off(time)).isCloseTo(SKEW.toMillis(), Offset.offset(CLOSE_MS));
    assertThat(time.offset()).isZero();
    assertThat(time.measured()).isFalse();
  }

  @Test
  void syncCorrectsAClockAheadAndOneBehindToRedissTime() {
    RedisTime ahead = skewed(SKEW);
    RedisTime behind = skewed(SKEW.negated());

    ahead.sync(connector.commands()).block();
    behind.sync(connector.commands()).block();

    assertThat(Math.abs(off(ahead))).isLessThan(CLOSE_MS);
    assertThat(Math.abs(off(behind))).isLessThan(CLOSE_MS);
    assertThat(Math.abs(off(ahead.withZone(ZoneOffset.ofHours(9))))).isLessThan(CLOSE_MS);
  }

  @Test
  void syncWhenRedisFailsKeepsTheLastOffset() {
    RedisTime ahead = skewed(SKEW);
    ahead.sync(connector.commands()).block();
    Duration offset = ahead.offset();
    redis.server().kill();

    assertThatThrownBy(() -> ahead.sync(connector.commands()).block()).isNotNull();

    // The offset is read from two clocks at a time: equal to the millisecond they tick apart.
    assertThat(ahead.offset().minus(offset).abs()).isLessThanOrEqualTo(Duration.ofMillis(2));
  }

  @Test
  void aFirstReplyThatComesLateIsStillTakenAsRedissTimeToWithinHalfItsRoundTrip() {
    RedisTime ahead = skewed(SKEW);
    // Redis answers nobody for 300 ms: a first measurement off by at most 150 ms beats a clock two
    // minutes off.
    redis.server().command("CLIENT", "PAUSE", "300", "ALL");

    ahead.sync(connector.commands()).block();

    assertThat(ahead.measured()).isTrue();
    assertThat(Math.abs(off(ahead))).isLessThan(300 + CLOSE_MS);
  }

  @Test
  void aStepOfTheMachinesClockAfterAMeasurementChangesNothing() {
    MutableClock machine = new MutableClock(Clock.systemUTC().instant());
    RedisTime time = new RedisTime(machine);
    time.sync(connector.commands()).block();

    machine.advance(Duration.ofHours(1));
    assertThat(Math.abs(off(time))).isLessThan(CLOSE_MS);
    machine.advance(Duration.ofHours(-3));
    assertThat(Math.abs(off(time))).isLessThan(CLOSE_MS);
  }
}
