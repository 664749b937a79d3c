package io.anteroom.gateway.token;

import io.anteroom.queue.QueueId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a valid pass says: this visitor was admitted to these queues of one room until {@code
 * expiresAt}.
 *
 * @param visitor the visitor id
 * @param room the room the pass is for
 * @param items the items of the room it opens, most recent first, at most {@value
 *     TokenCodec#MAX_ITEMS}; {@link QueueId#ROOM_WIDE} for the room-wide queue
 * @param issuedAt when it was issued (whole seconds)
 * @param expiresAt when it stops opening the origin (whole seconds)
 * @param id the random token id ({@code jti})
 */
public record Pass(
    String visitor,
    String room,
    List<String> items,
    Instant issuedAt,
    Instant expiresAt,
    String id) {

  public Pass {
    items = List.copyOf(items);
  }

  /** Whether this pass lets its holder into {@code queue}. */
  public boolean opens(QueueId queue) {
    return room.equals(queue.room()) && items.contains(queue.item());
  }

  /** Whether more than half of the lifetime is used up, so a sliding session renews it. */
  public boolean pastHalfLife(Instant now) {
    Duration life = Duration.between(issuedAt, expiresAt);
    if (life.isNegative()) {
      return !now.isBefore(issuedAt.plus(life.dividedBy(2)));
    }
    // Duration.dividedBy goes through BigDecimal; halving a positive duration needs no more than
    // this, rounded down to the nanosecond as dividedBy rounds.
    long seconds = life.getSeconds();
    Instant half =
        issuedAt
            .plusSeconds(seconds / 2)
            .plusNanos(((seconds % 2) * 1_000_000_000L + life.getNano()) / 2);
    return !now.isBefore(half);
  }
}
