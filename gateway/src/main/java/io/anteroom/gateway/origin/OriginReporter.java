package io.anteroom.gateway.origin;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.origin.OriginFigures;
import io.anteroom.queue.origin.RedisPilot;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sends what this gateway saw of each room's origin ({@link OriginWatch}) to Redis every {@link
 * #EVERY}, one call per room whose auto-pilot is on and whose origin answered, under the second the
 * interval mostly fell in; the workers sum all gateways' reports ({@link RedisPilot}). Figures of a
 * room whose auto-pilot is off are dropped. Not while the breaker in front of Redis refuses calls:
 * those figures are lost, and the auto-pilot holds while it has too few.
 */
public final class OriginReporter {

  private static final Logger log = LoggerFactory.getLogger(OriginReporter.class);

  /** Time between reports. */
  public static final Duration EVERY = Duration.ofSeconds(1);

  private final OriginWatch watch;
  private final RedisPilot pilot;
  private final RoomPolicyMirror policies;
  private final RedisGuard redis;
  private final String gateway;
  private final Clock clock;
  private final ThrottledWarnings warnings;

  /**
   * @param gateway this gateway's id, unique among the gateways
   */
  public OriginReporter(
      OriginWatch watch,
      RedisPilot pilot,
      RoomPolicyMirror policies,
      RedisGuard redis,
      String gateway,
      Clock clock) {
    this.watch = watch;
    this.pilot = pilot;
    this.policies = policies;
    this.redis = redis;
    this.gateway = gateway;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
  }

  /** One report per room due; completes when sent, never with an error. */
  public Mono<Void> report() {
    // The interval since the last report is about EVERY long: it mostly fell in this second.
    long second = Math.floorDiv(clock.millis() - EVERY.toMillis() / 2, 1000);
    return Flux.fromIterable(watch.rooms())
        .flatMap(
            room -> {
              OriginFigures figures = watch.take(room);
              if (figures.answers() == 0
                  || !policies.policy(room).autopilot().on()
                  || redis.refuses()) {
                return Mono.empty();
              }
              return redis
                  .handOff(pilot.report(room, second, gateway, figures))
                  .onErrorResume(
                      error -> {
                        warnings.warn(
                            "origin-" + room,
                            "room={} origin figures could not be reported: {}",
                            room,
                            error.toString());
                        return Mono.empty();
                      });
            })
        .then();
  }
}
