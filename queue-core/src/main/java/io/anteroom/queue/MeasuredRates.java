package io.anteroom.queue;

import java.util.OptionalDouble;

/**
 * The measured admission rate last read per queue, so that joining newcomers need not read it from
 * Redis each time: under load, when joins are many, one read a second serves them all. A lossy
 * table of fixed size: queues sharing a slot evict each other, which only costs a read.
 */
final class MeasuredRates {

  /** How long a rate read from Redis is reused; short next to its 30 s time constant. */
  static final long MAX_AGE_MS = 1000;

  private static final int SLOTS = 256;

  private record Reading(QueueId queue, double perSecond, long atMillis) {}

  private final Reading[] slots = new Reading[SLOTS];

  /** The rate read for {@code queue} within {@link #MAX_AGE_MS} before {@code now}, if any. */
  OptionalDouble recent(QueueId queue, long now) {
    Reading reading = slots[slot(queue)];
    if (reading == null
        || !reading.queue().equals(queue)
        || now - reading.atMillis() > MAX_AGE_MS
        || now < reading.atMillis()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(reading.perSecond());
  }

  /**
   * Records a rate just read from Redis. Racing writers may overwrite each other; both are fresh.
   */
  void record(QueueId queue, double perSecond, long now) {
    slots[slot(queue)] = new Reading(queue, perSecond, now);
  }

  private static int slot(QueueId queue) {
    return (queue.hashCode() & 0x7fffffff) % SLOTS;
  }
}
