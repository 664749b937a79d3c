package io.anteroom.gateway.line;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What happened to visitors at this gateway, per room: places taken in line ({@code
 * anteroom.gateway.enqueued}), admissions on arrival at an empty line ({@code
 * anteroom.gateway.admitted}), sessions ended early ({@code anteroom.gateway.released}, by {@code
 * origin} or {@code admin}), visitors the origin failed right after admission sent back to the
 * front of the line ({@code anteroom.gateway.reentered}), and the time from joining the line to
 * admission ({@code anteroom.queue.wait}, a histogram), taken when a ticket holder is found
 * admitted: the ticket's issue time (whole seconds) to the admission time in Redis. Admissions from
 * the line are counted by the workers ({@code anteroom.worker.admitted}).
 *
 * <p>Meters exist from start-up for each configured room, so rates start at zero; a room that is
 * not configured is never seen here (its routes fail at start-up).
 */
public final class LineEvents {

  /** Bucket bounds of the wait histogram: from seconds to hours, for {@code histogram_quantile}. */
  static final Duration[] WAIT_BUCKETS = {
    Duration.ofSeconds(1),
    Duration.ofSeconds(2),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
    Duration.ofSeconds(20),
    Duration.ofSeconds(30),
    Duration.ofSeconds(45),
    Duration.ofMinutes(1),
    Duration.ofSeconds(90),
    Duration.ofMinutes(2),
    Duration.ofMinutes(3),
    Duration.ofMinutes(5),
    Duration.ofMinutes(7),
    Duration.ofMinutes(10),
    Duration.ofMinutes(15),
    Duration.ofMinutes(20),
    Duration.ofMinutes(30),
    Duration.ofMinutes(45),
    Duration.ofHours(1),
    Duration.ofMinutes(90),
    Duration.ofHours(2),
    Duration.ofHours(3)
  };

  /** Who ended a session early. */
  public enum Releaser {
    ORIGIN,
    ADMIN
  }

  private record RoomMeters(
      Counter enqueued,
      Counter admitted,
      Counter byOrigin,
      Counter byAdmin,
      Counter reentered,
      Timer waited) {}

  private final Map<String, RoomMeters> rooms;

  public LineEvents(Set<String> rooms, MeterRegistry meters) {
    this.rooms =
        rooms.stream()
            .collect(Collectors.toUnmodifiableMap(Function.identity(), r -> meters(r, meters)));
  }

  private static RoomMeters meters(String room, MeterRegistry meters) {
    return new RoomMeters(
        Counter.builder("anteroom.gateway.enqueued")
            .description("Places taken in line")
            .tag("room", room)
            .register(meters),
        Counter.builder("anteroom.gateway.admitted")
            .description("Visitors admitted on arrival at an active queue with an empty line")
            .tag("room", room)
            .register(meters),
        released(room, "origin", meters),
        released(room, "admin", meters),
        Counter.builder("anteroom.gateway.reentered")
            .description("Visitors the origin failed right after admission, sent to the front")
            .tag("room", room)
            .register(meters),
        Timer.builder("anteroom.queue.wait")
            .description("Time from joining the line to admission")
            .tag("room", room)
            .serviceLevelObjectives(WAIT_BUCKETS)
            .register(meters));
  }

  private static Counter released(String room, String by, MeterRegistry meters) {
    return Counter.builder("anteroom.gateway.released")
        .description("Sessions ended or places given up early")
        .tag("room", room)
        .tag("by", by)
        .register(meters);
  }

  /** A visitor took a new place in line, or went straight in; a repeated call counts nothing. */
  void joined(String room, boolean admitted) {
    RoomMeters meters = rooms.get(room);
    if (meters != null) {
      (admitted ? meters.admitted() : meters.enqueued()).increment();
    }
  }

  /**
   * A ticket holder was found admitted: joined at {@code joinedMs} (the ticket's issue time, whole
   * seconds), let in by the line at {@code admittedMs}; nothing for one the line did not let in
   * (0).
   */
  void waited(String room, long joinedMs, long admittedMs) {
    RoomMeters meters = rooms.get(room);
    if (meters != null && admittedMs > 0) {
      meters.waited().record(Duration.ofMillis(Math.max(0, admittedMs - joinedMs)));
    }
  }

  /** A visitor the origin failed right after admission went back to the front of the line. */
  public void reentered(String room) {
    RoomMeters meters = rooms.get(room);
    if (meters != null) {
      meters.reentered().increment();
    }
  }

  /** A session ended, or a place was given up, on request. */
  public void released(String room, Releaser by) {
    RoomMeters meters = rooms.get(room);
    if (meters != null) {
      (by == Releaser.ORIGIN ? meters.byOrigin() : meters.byAdmin()).increment();
    }
  }
}
