package io.anteroom.gateway.origin;

import io.anteroom.queue.origin.OriginFigures;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What each room's origin did with the pass holders' requests since the last {@link #take}, for the
 * auto-pilot: counts of answers, 5xx and failures, and the answers' times in an HdrHistogram {@link
 * Recorder} (wait-free to record on the request path; each take swaps in a fresh interval).
 */
public final class OriginWatch {

  /** One room's figures since the last take. */
  private static final class Room {
    final Recorder latency = new Recorder(OriginFigures.HIGHEST_MICROS, OriginFigures.DIGITS);
    final LongAdder answers = new LongAdder();
    final LongAdder serverErrors = new LongAdder();
    final LongAdder failures = new LongAdder();
    Histogram recycled;
  }

  private final Map<String, Room> rooms;

  /**
   * @param rooms the configured rooms
   */
  public OriginWatch(Set<String> rooms) {
    this.rooms =
        rooms.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), r -> new Room()));
  }

  /**
   * Records one pass holder's answer from {@code room}'s origin, {@code nanos} after forwarding.
   */
  void record(String room, OriginMeters.Outcome outcome, long nanos) {
    Room figures = rooms.get(room);
    if (figures == null) {
      return;
    }
    figures.answers.increment();
    if (outcome == OriginMeters.Outcome.ERROR) {
      figures.failures.increment();
      return;
    }
    if (outcome == OriginMeters.Outcome.SERVER_ERROR) {
      figures.serverErrors.increment();
    }
    long micros = TimeUnit.NANOSECONDS.toMicros(nanos);
    figures.latency.recordValue(Math.min(Math.max(0, micros), OriginFigures.HIGHEST_MICROS));
  }

  /** The configured rooms. */
  public Set<String> rooms() {
    return rooms.keySet();
  }

  /**
   * {@code room}'s figures since the last take, starting a new interval; none for an unknown room.
   * One caller at a time (the reporter).
   */
  public OriginFigures take(String room) {
    Room figures = rooms.get(room);
    if (figures == null) {
      return OriginFigures.none();
    }
    Histogram interval = figures.latency.getIntervalHistogram(figures.recycled);
    Histogram latency = OriginFigures.histogram();
    latency.add(interval);
    figures.recycled = interval;
    return new OriginFigures(
        figures.answers.sumThenReset(),
        figures.serverErrors.sumThenReset(),
        figures.failures.sumThenReset(),
        latency);
  }
}
