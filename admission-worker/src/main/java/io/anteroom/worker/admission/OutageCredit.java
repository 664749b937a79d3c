package io.anteroom.worker.admission;

import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a Redis outage from costing people their places. A waiting visitor is given up as abandoned
 * when their last poll is older than {@code abandon-after}; while Redis was unreachable no poll
 * could arrive, so after an outage longer than that the whole line would look abandoned. Once this
 * worker reaches Redis again after a gap, it adds the length of the gap to {@code abandon-after}
 * until {@code abandon-after} has passed since the recovery: visitors who had left before the
 * outage are still given up, and everyone else has the full {@code abandon-after} after the
 * recovery to poll again.
 */
final class OutageCredit {

  private static final Logger log = LoggerFactory.getLogger(OutageCredit.class);

  private final Clock clock;
  private final long gapMs;
  private long lastReachedMs = -1;
  private long recoveredAtMs;
  private long outageMs;

  /** Gaps shorter than this are late ticks on a busy machine, not outages. */
  private static final long MIN_GAP_MS = 1000;

  /**
   * @param tick the worker's tick; a gap of more than two ticks (and at least a second) between
   *     successful reads of Redis counts as an outage
   */
  OutageCredit(Clock clock, Duration tick) {
    this.clock = clock;
    this.gapMs = Math.max(2 * tick.toMillis(), MIN_GAP_MS);
  }

  /**
   * The worker starts now. An outage that begins before its first read of Redis counts from here:
   * the worker cannot know how long Redis was away before it started, and the line loses nothing by
   * assuming the worst.
   */
  synchronized void started() {
    if (lastReachedMs < 0) {
      lastReachedMs = clock.millis();
    }
  }

  /** Redis answered this worker now. */
  synchronized void reached() {
    long now = clock.millis();
    if (lastReachedMs >= 0 && now - lastReachedMs > gapMs) {
      outageMs = now - lastReachedMs;
      recoveredAtMs = now;
      log.info(
          "Redis reached again after {} ms; waiting visitors keep their places that much longer",
          outageMs);
    }
    lastReachedMs = now;
  }

  /** How much longer than {@code policy}'s {@code abandon-after} places are kept now. */
  synchronized long extraMs(RoomPolicy policy) {
    if (outageMs == 0 || clock.millis() >= recoveredAtMs + policy.abandonAfter().toMillis()) {
      return 0;
    }
    return outageMs;
  }
}
