package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gateway's beat in a real Redis: raised while visitors' calls get through, and removed. */
class GatewayPulseIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final CircuitBreaker breaker = CircuitBreaker.ofDefaults("redis");
  RedisConnector connector;
  GatewayPulse pulse;

  @BeforeEach
  void setUp() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(1), 100));
    pulse = new GatewayPulse(new GatewayBeats(connector.commands(), keys), new RedisGuard(breaker));
  }

  @AfterEach
  void tearDown() {
    connector.close();
  }

  Map<String, String> beats() {
    return connector.commands().hgetall(keys.gateways()).toCompletableFuture().join();
  }

  @Test
  void eachBeatRaisesTheGatewaysCount() {
    pulse.beat().block();
    pulse.beat().block();

    assertThat(beats()).hasSize(1).containsValue("2");
  }

  @Test
  void noBeatWhileTheBreakerRefusesVisitorsCallsAndItIsNotCountedAsOne() {
    pulse.beat().block();
    breaker.transitionToForcedOpenState();

    pulse.beat().block();

    assertThat(beats()).containsValue("1");
    assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isZero();
  }

  @Test
  void leaveRemovesTheBeat() {
    pulse.beat().block();

    pulse.leave();

    assertThat(beats()).isEmpty();
  }
}
