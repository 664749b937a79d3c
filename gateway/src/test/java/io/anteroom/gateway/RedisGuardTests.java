package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.lettuce.core.RedisException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class RedisGuardTests {

  final CircuitBreaker breaker =
      CircuitBreaker.of(
          RedisGuard.BREAKER,
          CircuitBreakerConfig.custom()
              .slidingWindowSize(4)
              .minimumNumberOfCalls(4)
              .failureRateThreshold(50)
              .build());
  final RedisGuard guard = new RedisGuard(breaker);
  final AtomicInteger redisCalls = new AtomicInteger();

  @Test
  void callAnswersOnReactorsParallelScheduler() {
    String thread = guard.call(redis(() -> "PONG")).map(reply -> currentThread()).block();

    assertThat(thread).startsWith("parallel-");
    assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
  }

  @Test
  void callCountsRedisFailuresUntilTheBreakerOpens() {
    for (int i = 0; i < 4; i++) {
      Mono<String> failing =
          redis(
              () -> {
                throw new RedisException("Connection closed");
              });
      assertThatThrownBy(() -> guard.call(failing).block()).isInstanceOf(RedisException.class);
    }

    assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void callWhileTheBreakerIsOpenIsRefusedWithoutAskingRedis() {
    breaker.transitionToOpenState();

    assertThatThrownBy(() -> guard.call(redis(() -> "PONG")).block())
        .isInstanceOf(CallNotPermittedException.class);
    assertThat(redisCalls).hasValue(0);
    assertThat(breaker.getMetrics().getNumberOfNotPermittedCalls()).isEqualTo(1);
  }

  @Test
  void handOffAsksRedisWhateverTheBreakerSays() {
    breaker.transitionToOpenState();

    String thread = guard.handOff(redis(() -> "PONG")).map(reply -> currentThread()).block();

    assertThat(thread).startsWith("parallel-");
    assertThat(redisCalls).hasValue(1);
  }

  /** A stand-in for a Redis reply that counts how often it was asked for. */
  private Mono<String> redis(Supplier<String> reply) {
    return Mono.fromSupplier(
        () -> {
          redisCalls.incrementAndGet();
          return reply.get();
        });
  }

  private static String currentThread() {
    return Thread.currentThread().getName();
  }
}
