package io.anteroom.worker.pilot;

import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.origin.OriginFigures;
import io.anteroom.queue.origin.PilotReading;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Each room's auto-pilot as this worker runs it: once a {@link PaceLaw#STEP_EVERY} per room with
 * the auto-pilot on, it reads the pilot and the origin's figures ({@link RedisPilot}), and unless
 * another worker decided within that time, decides ({@link PaceLaw}) and stores the decision unless
 * another worker stored one first; so the room's pilot moves once a second however many workers
 * run. Between decisions, and when Redis cannot be read, it admits at the share it last knew. A
 * room with the auto-pilot off admits at the configured rates at once.
 *
 * <p>Gauges per configured room, all read from Redis so every worker shows the same: {@code
 * anteroom.autopilot.share} (of the configured rates, 1 when off), {@code anteroom.autopilot.rate}
 * (the room's effective rate per second: its {@code new-users-per-minute} over 60 when set, its
 * {@code admit-per-second} otherwise), and the window's {@code anteroom.autopilot.origin.p50} and
 * {@code .p95} (seconds), {@code anteroom.autopilot.origin.errors} (share) and {@code
 * anteroom.autopilot.origin.answers}.
 */
public final class Pilots {

  private static final Logger log = LoggerFactory.getLogger(Pilots.class);

  /** The last decision this worker knows of one room, and what it read for it. */
  private static final class Known {
    volatile double share = 1;
    volatile long readAt;
    volatile double rate;
    volatile double p50;
    volatile double p95;
    volatile double errors;
    volatile double answers;
    volatile String reason = PilotState.START.reason();
  }

  private final RedisPilot pilot;
  private final Clock clock;
  private final ThrottledWarnings warnings;
  private final Map<String, Known> rooms = new ConcurrentHashMap<>();

  public Pilots(RedisPilot pilot, Set<String> rooms, MeterRegistry meters, Clock clock) {
    this.pilot = pilot;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
    for (String room : rooms) {
      Known known = new Known();
      this.rooms.put(room, known);
      gauge(meters, "anteroom.autopilot.share", room, known, k -> k.share, "Share of the rates");
      gauge(meters, "anteroom.autopilot.rate", room, known, k -> k.rate, "Effective rate /s");
      gauge(meters, "anteroom.autopilot.origin.p50", room, known, k -> k.p50, "Origin p50 (s)");
      gauge(meters, "anteroom.autopilot.origin.p95", room, known, k -> k.p95, "Origin p95 (s)");
      gauge(meters, "anteroom.autopilot.origin.errors", room, known, k -> k.errors, "Error share");
      gauge(meters, "anteroom.autopilot.origin.answers", room, known, k -> k.answers, "Answers");
    }
  }

  /**
   * The share of the configured rates the room with {@code policy} admits at now ({@link
   * RoomPolicy#paced}): its auto-pilot's when that is on, 1 otherwise. Never fails.
   */
  public Mono<Double> share(String room, RoomPolicy policy) {
    Known known = rooms.computeIfAbsent(room, r -> new Known());
    if (!policy.autopilot().on()) {
      known.share = 1;
      known.rate = policy.pacedRate();
      known.readAt = 0;
      return Mono.just(1.0);
    }
    long now = clock.millis();
    if (now - known.readAt < PaceLaw.STEP_EVERY.toMillis()) {
      return Mono.just(known.share);
    }
    known.readAt = now;
    long second = Math.floorDiv(now, 1000) - PaceLaw.LAG.toSeconds() - 1;
    return pilot
        .read(room, second - PaceLaw.WINDOW.toSeconds() + 1, second)
        .flatMap(reading -> decide(room, policy, known, reading, now))
        .onErrorResume(
            error -> {
              warnings.warn(
                  "pilot-" + room,
                  "room={} auto-pilot could not read the origin's figures, holding at {}: {}",
                  room,
                  known.share,
                  error.toString());
              return Mono.just(known.share);
            });
  }

  private Mono<Double> decide(
      String room, RoomPolicy policy, Known known, PilotReading reading, long now) {
    double ceiling = policy.pacedRate();
    if (now - reading.state().at() < PaceLaw.STEP_EVERY.toMillis()) {
      // Another worker decided within the last second: one decision a second, whatever the
      // number of workers.
      return Mono.just(adopt(policy, known, reading.state()));
    }
    PilotState next =
        PaceLaw.decide(policy.autopilot(), reading, now, policy.autopilot().floorShare(ceiling));
    OriginFigures figures = reading.figures();
    known.p50 = figures.percentileMillis(50) / 1000;
    known.p95 = figures.percentileMillis(95) / 1000;
    known.errors = figures.errorShare();
    known.answers = figures.answers();
    return pilot
        .step(room, reading.state(), next)
        .map(
            taken -> {
              PilotState decided = taken ? next : reading.state();
              if (taken && Math.abs(next.share() - reading.state().share()) > 1e-9) {
                log.info(
                    "room={} auto-pilot: {} of the configured rate ({}/s), was {}: {}",
                    room,
                    round(next.share()),
                    round(ceiling * next.share()),
                    round(reading.state().share()),
                    next.reason());
              }
              return adopt(policy, known, decided);
            });
  }

  /** Admits at {@code decided}'s share from now on. */
  private static double adopt(RoomPolicy policy, Known known, PilotState decided) {
    known.share = decided.share();
    known.reason = decided.reason();
    known.rate = policy.paced(decided.share()).pacedRate();
    return known.share;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }

  private static void gauge(
      MeterRegistry meters,
      String name,
      String room,
      Known known,
      ToDoubleFunction<Known> value,
      String description) {
    Gauge.builder(name, known, value).description(description).tag("room", room).register(meters);
  }
}
