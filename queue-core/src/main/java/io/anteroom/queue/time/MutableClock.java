package io.anteroom.queue.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock moved by hand: tests, the simulator's virtual time and the benches. The queue's scripts
 * called with it take its time as it is ({@code ScriptRunner}); called with any other clock, they
 * bound the caller's now by Redis's own. Safe to read and advance from several threads.
 */
public final class MutableClock extends Clock {

  private final AtomicLong millis;

  public MutableClock(Instant start) {
    this.millis = new AtomicLong(start.toEpochMilli());
  }

  /** A clock at a fixed, arbitrary instant. */
  public static MutableClock startingAt2026() {
    return new MutableClock(Instant.parse("2026-06-01T10:00:00Z"));
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    millis.set(instant.toEpochMilli());
  }

  /** Moves the clock forward (or backward, for a negative amount). */
  public void advance(Duration amount) {
    millis.addAndGet(amount.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}
