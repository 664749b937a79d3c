package io.anteroom.gateway;

import io.anteroom.queue.GatewayBeats;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * This gateway's beat in Redis ({@link GatewayBeats}), sent every {@link #EVERY} while visitors'
 * calls reach Redis: not while the breaker in front of Redis refuses them, not while Redis fails,
 * and not after a second in which any visitor's call was refused, failed, or answered slower than
 * the breaker's slow-call threshold ({@link RedisGuard#missed()}). A Redis slow enough to keep the
 * breaker opening and closing lets a beat through now and then while it refuses most polls; counted
 * by the calls, such a gateway stays silent. The workers then hold back giving up the places of
 * visitors whose polls could not arrive. The beat itself is not a visitor's call: it neither counts
 * in the breaker nor probes it. Removed when the gateway stops, so a gateway scaled away is not
 * taken for one cut off.
 */
public final class GatewayPulse {

  /** Time between beats. */
  public static final Duration EVERY = Duration.ofSeconds(1);

  private static final Duration LEAVE_WAIT = Duration.ofSeconds(2);

  private final GatewayBeats beats;
  private final RedisGuard redis;
  private final String id = UUID.randomUUID().toString();
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong missedBefore = new AtomicLong();

  public GatewayPulse(GatewayBeats beats, RedisGuard redis) {
    this.beats = beats;
    this.redis = redis;
  }

  /** This gateway's id, unique among the gateways. */
  public String id() {
    return id;
  }

  /**
   * One beat, unless the breaker refuses visitors' calls or one of them missed Redis since the last
   * beat; fails when Redis does.
   */
  public Mono<Void> beat() {
    long missed = redis.missed();
    boolean allThrough = missedBefore.getAndSet(missed) == missed;
    if (redis.refuses() || !allThrough) {
      return Mono.empty();
    }
    return redis.handOff(beats.beat(id, count.incrementAndGet()));
  }

  /** Removes this gateway's beat, waiting a short while at most; a failure is left to expiry. */
  public void leave() {
    beats.remove(id).timeout(LEAVE_WAIT).onErrorResume(error -> Mono.empty()).block();
  }
}
