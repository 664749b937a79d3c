package io.anteroom.gateway.origin;

import io.anteroom.queue.origin.OriginFigures;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What each room's origin did with the requests of pass holders the line admitted since the last
 * {@link #take}, for the auto-pilot: counts of answers, 5xx and failures, and the answers' times in
 * an HdrHistogram {@link Recorder} (wait-free to record on the request path; each take swaps in a
 * fresh interval).
 *
 * <p>One visitor weighs at most {@value #PER_VISITOR} answers a second of a room ({@link #sample}):
 * a visitor asking many times a second, as a script can, adds no more to the sample than a few
 * browsers do. The count is kept in a fixed table of {@value #SLOTS} slots per room, each a
 * visitor's (by a keyed hash of the id) second and count in one {@code long}: no allocation,
 * bounded memory. Visitors sharing a slot share its allowance, which only thins the sample.
 */
public final class OriginWatch {

  /** Most answers of one visitor a room's sample takes in one second. */
  static final int PER_VISITOR = 4;

  /** Slots of the per-visitor counts, per room (a power of two). */
  static final int SLOTS = 8192;

  /** One room's figures since the last take. */
  private static final class Room {
    final AtomicLongArray visitors = new AtomicLongArray(SLOTS);
    final Recorder latency = new Recorder(OriginFigures.HIGHEST_MICROS, OriginFigures.DIGITS);
    final LongAdder answers = new LongAdder();
    final LongAdder serverErrors = new LongAdder();
    final LongAdder failures = new LongAdder();
    Histogram recycled;
  }

  private final Map<String, Room> rooms;
  private final Clock clock;
  private final int seed = ThreadLocalRandom.current().nextInt();

  /**
   * @param rooms the configured rooms
   * @param clock the clock seconds are read from
   */
  public OriginWatch(Set<String> rooms, Clock clock) {
    this.clock = clock;
    this.rooms =
        rooms.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), r -> new Room()));
  }

  /** On the system clock. */
  public OriginWatch(Set<String> rooms) {
    this(rooms, Clock.systemUTC());
  }

  /**
   * Records {@code visitor}'s answer from {@code room}'s origin, {@code nanos} after the request
   * was fully sent, unless the visitor's answers of this second reached {@value #PER_VISITOR}.
   */
  void sample(String room, String visitor, OriginMeters.Outcome outcome, long nanos) {
    Room figures = rooms.get(room);
    if (figures != null && allowed(figures.visitors, visitor)) {
      record(room, outcome, nanos);
    }
  }

  /** Takes one of the visitor's answers of this second, if any is left. */
  private boolean allowed(AtomicLongArray visitors, String visitor) {
    int hash = (visitor.hashCode() ^ seed) * 0x9E3779B9;
    int slot = (hash ^ (hash >>> 16)) & (SLOTS - 1);
    long second = Math.floorDiv(clock.millis(), 1000);
    while (true) {
      long held = visitors.get(slot);
      long count = held >>> 40 == (second & 0xFFFFFF) ? held & 0xFF : 0;
      if (count >= PER_VISITOR) {
        return false;
      }
      long next = ((second & 0xFFFFFF) << 40) | (count + 1);
      if (visitors.compareAndSet(slot, held, next)) {
        return true;
      }
    }
  }

  /** Records one answer from {@code room}'s origin, {@code nanos} after the request was sent. */
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
