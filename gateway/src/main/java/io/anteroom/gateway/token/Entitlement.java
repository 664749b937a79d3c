package io.anteroom.gateway.token;

import java.time.Duration;
import java.time.Instant;

/**
 * What a pass says of one item: it opens the item's queue until {@code until}, Redis last confirmed
 * the visitor's session in that queue at {@code checked}, and the line admitted them at {@code
 * admitted}. Carried from pass to pass unchanged; only a new confirmation moves the first two, and
 * only a new admission from the line the third.
 *
 * @param item the item id, {@link io.anteroom.queue.QueueId#ROOM_WIDE} for the room-wide queue
 * @param until when it stops opening the queue (millisecond precision)
 * @param checked when the session was last confirmed in Redis (millisecond precision)
 * @param admitted when the line admitted the visitor (millisecond precision); null when not known:
 *     a pass given while the queue was off (there was no line), or one from before passes said
 */
public record Entitlement(String item, Instant until, Instant checked, Instant admitted) {

  /** An entitlement not given by the line, or whose admission is not known. */
  public Entitlement(String item, Instant until, Instant checked) {
    this(item, until, checked, null);
  }

  /** Whether it still opens its queue at {@code now}. */
  public boolean opensAt(Instant now) {
    return now.isBefore(until);
  }

  /**
   * Whether the line admitted the visitor less than {@code grace} before {@code now}: a failure of
   * the origin then sends them back to the front of the line. Never for an unknown admission.
   */
  public boolean admittedWithin(Instant now, Duration grace) {
    return admitted != null && now.toEpochMilli() - admitted.toEpochMilli() < grace.toMillis();
  }

  /** Whether the session is due to be confirmed again, {@code every} after the last time. */
  public boolean dueAt(Instant now, Duration every) {
    // In milliseconds, without an Instant: this runs on every pass holder's request.
    return now.toEpochMilli() - checked.toEpochMilli() >= every.toMillis();
  }
}
