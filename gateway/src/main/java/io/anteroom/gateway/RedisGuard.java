package io.anteroom.gateway;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.event.CircuitBreakerOnStateTransitionEvent;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The one way handlers wait on Redis: every handler that answers after a Redis call goes through
 * here.
 *
 * <p>Visitors' calls ({@link #call}) sit behind the circuit breaker {@value #BREAKER}. Once Redis
 * has failed or been slow often enough, the breaker refuses calls at once with a {@link
 * CallNotPermittedException} for a short while, so a dead Redis costs visitors nothing more than
 * the failure policy's answer, instead of a command timeout each; callers treat that exception as
 * any other Redis failure. After the wait a few calls try Redis again and close the breaker when
 * they succeed. Its settings are {@code resilience4j.circuitbreaker.instances.redis}. Opening, and
 * closing again, are logged once each per outage, not on every retry in between.
 *
 * <p>Replies are handed over from Lettuce's I/O threads before a response is written. A response
 * completed on Lettuce's event loop sometimes left the visitor's keep-alive connection without an
 * answer to its next request (after some dozens to hundreds of requests on one connection; {@code
 * KeepAliveIntegrationTests} reproduces it), while the same response completed on Reactor's
 * parallel scheduler never did. The hop costs a task submission.
 */
public final class RedisGuard {

  /** The name of the breaker, and the {@code name} tag of its metrics. */
  public static final String BREAKER = "redis";

  private static final Logger log = LoggerFactory.getLogger(RedisGuard.class);

  private static final Scheduler RESPONSES = Schedulers.parallel();

  private final CircuitBreaker breaker;
  private final AtomicLong missed = new AtomicLong();

  public RedisGuard(CircuitBreaker breaker) {
    this.breaker = breaker;
    Duration slow = breaker.getCircuitBreakerConfig().getSlowCallDurationThreshold();
    breaker
        .getEventPublisher()
        .onStateTransition(RedisGuard::logTransition)
        .onCallNotPermitted(event -> missed.incrementAndGet())
        .onSuccess(
            event -> {
              if (event.getElapsedDuration().compareTo(slow) >= 0) {
                missed.incrementAndGet();
              }
            })
        .onError(
            event -> {
              if (!(event.getThrowable() instanceof RedisCommandExecutionException)) {
                missed.incrementAndGet();
              }
            });
  }

  /**
   * How many visitors' calls have not reached Redis since this gateway started: refused by the
   * breaker, timed out, or failed to connect. An error Redis replied with is not counted: Redis was
   * reached.
   */
  public long missed() {
    return missed.get();
  }

  /**
   * {@code reply} behind the breaker, signalled on Reactor's parallel scheduler. While the breaker
   * is open it fails with {@link CallNotPermittedException} without subscribing to {@code reply}.
   */
  public <T> Mono<T> call(Mono<T> reply) {
    return handOff(reply.transformDeferred(CircuitBreakerOperator.of(breaker)));
  }

  /** Whether the breaker refuses visitors' calls now (open, or forced open by an operator). */
  public boolean refuses() {
    CircuitBreaker.State state = breaker.getState();
    return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
  }

  /**
   * {@code reply}, signalled on Reactor's parallel scheduler, without the breaker: for the admin
   * API, whose rare calls should reach Redis to show an operator whether it is back, and whose
   * refusals are not Redis failures.
   */
  public <T> Mono<T> handOff(Mono<T> reply) {
    return reply.publishOn(RESPONSES);
  }

  private static void logTransition(CircuitBreakerOnStateTransitionEvent event) {
    switch (event.getStateTransition()) {
      case CLOSED_TO_OPEN ->
          log.warn(
              "Redis breaker open: calls are refused and rooms answer by their failure-policy"
                  + " until Redis answers again");
      case HALF_OPEN_TO_CLOSED -> log.info("Redis breaker closed: Redis answers again");
      default -> {}
    }
  }
}
