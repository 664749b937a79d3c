package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How long waiting visitors may stay silent while a gateway cannot reach Redis: the gateways' beats
 * in a real Redis, read on a clock moved by hand, once a second as the worker does.
 */
class GatewaySilenceIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();
  final RoomPolicy policy = RoomPolicy.DEFAULTS.withAbandonAfter(Duration.ofSeconds(30));
  RedisConnector connector;
  GatewayBeats beats;
  GatewaySilence silence;

  @BeforeEach
  void setUp() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 1000));
    connector.commands().flushall();
    beats = new GatewayBeats(connector.commands(), keys);
    silence = new GatewaySilence(beats, clock);
  }

  @AfterEach
  void tearDown() {
    connector.close();
  }

  /** {@code seconds} seconds of reads a second apart; gateway "a" beats each second if asked. */
  void seconds(int seconds, boolean aBeats) {
    for (int i = 0; i < seconds; i++) {
      clock.advance(Duration.ofSeconds(1));
      if (aBeats) {
        beats.beat("a", clock.millis()).block();
      }
      silence.read().block();
    }
  }

  @Test
  void aGatewayThatBeatsGivesNoCredit() {
    seconds(10, true);

    assertThat(silence.extraMs(policy)).isZero();
  }

  @Test
  void aSilenceOfUpToThreeSecondsIsALateBeatNotAnOutage() {
    seconds(1, true);
    seconds(3, false);

    assertThat(silence.extraMs(policy)).isZero();
  }

  @Test
  void aGatewaySilentForLongerExtendsAbandonAfterByItsSilenceWhileItLasts() {
    seconds(1, true);
    seconds(45, false);

    assertThat(silence.extraMs(policy)).isEqualTo(45_000);
  }

  @Test
  void onceTheGatewayBeatsAgainItsSilenceCountsUntilAbandonAfterHasPassed() {
    seconds(1, true);
    seconds(45, false);
    seconds(1, true);
    long silent = 46_000;

    assertThat(silence.extraMs(policy)).isEqualTo(silent);
    seconds(29, true);
    assertThat(silence.extraMs(policy)).isEqualTo(silent);
    seconds(1, true);
    assertThat(silence.extraMs(policy)).isZero();
  }

  @Test
  void aGatewaySilentForTenMinutesIsTakenAsGoneAndItsBeatRemoved() {
    seconds(1, true);
    seconds((int) GatewaySilence.GONE.toSeconds() - 1, false);
    assertThat(silence.extraMs(policy)).isPositive();

    seconds(1, false);

    assertThat(silence.extraMs(policy)).isZero();
    assertThat(connector.commands().hexists(keys.gateways(), "a").toCompletableFuture().join())
        .isFalse();
  }

  @Test
  void aGatewayThatRemovedItsBeatCountsNoMore() {
    seconds(1, true);
    seconds(10, false);
    beats.remove("a").block();

    seconds(1, false);

    assertThat(silence.extraMs(policy)).isZero();
  }

  @Test
  void readingMoreThanOnceASecondReadsNothingNew() {
    seconds(1, true);
    seconds(5, false);
    beats.beat("a", -1).block();
    clock.advance(Duration.ofMillis(500));

    silence.read().block();

    assertThat(silence.extraMs(policy)).as("the beat is not read yet").isEqualTo(5_000);
  }
}
