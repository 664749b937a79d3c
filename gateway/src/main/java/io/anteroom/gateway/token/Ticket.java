package io.anteroom.gateway.token;

import io.anteroom.queue.QueueId;
import java.time.Instant;

/**
 * What a valid ticket says: this visitor waits in this queue. It never opens the origin.
 *
 * @param visitor the visitor id
 * @param queue the queue the visitor waits in
 * @param issuedAt when it was issued, or last renewed (whole seconds)
 * @param id the random token id ({@code jti})
 * @param joinedAt when the visitor took the place (whole seconds); kept when the ticket is renewed
 */
public record Ticket(String visitor, QueueId queue, Instant issuedAt, String id, Instant joinedAt) {

  /** A ticket issued when its visitor joined. */
  public Ticket(String visitor, QueueId queue, Instant issuedAt, String id) {
    this(visitor, queue, issuedAt, id, issuedAt);
  }
}
