package io.anteroom.gateway.token;

import java.time.Duration;
import java.time.Instant;

/**
 * What a pass says of one item: it opens the item's queue until {@code until}, and Redis last
 * confirmed the visitor's session in that queue at {@code checked}. Carried from pass to pass
 * unchanged; only a new confirmation moves either time.
 *
 * @param item the item id, {@link io.anteroom.queue.QueueId#ROOM_WIDE} for the room-wide queue
 * @param until when it stops opening the queue (millisecond precision)
 * @param checked when the session was last confirmed in Redis (millisecond precision)
 */
public record Entitlement(String item, Instant until, Instant checked) {

  /** Whether it still opens its queue at {@code now}. */
  public boolean opensAt(Instant now) {
    return now.isBefore(until);
  }

  /** Whether the session is due to be confirmed again, {@code every} after the last time. */
  public boolean dueAt(Instant now, Duration every) {
    // In milliseconds, without an Instant: this runs on every pass holder's request.
    return now.toEpochMilli() - checked.toEpochMilli() >= every.toMillis();
  }
}
