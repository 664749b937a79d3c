package io.anteroom.bench;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands still until the benchmark moves it, so token refills are exact. */
final class SteppingClock extends Clock {

  private volatile Instant now;

  SteppingClock(Instant start) {
    this.now = start;
  }

  void set(Instant instant) {
    now = instant;
  }

  void advance(Duration step) {
    now = now.plus(step);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the benchmark clock is UTC only");
  }
}
