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
 * @param place the score of the place the line gave the visitor, NaN when not known (a re-entrant,
 *     a ticket given while the line could not be reached, or issued before tickets named places);
 *     kept when renewed, so a line the store lost takes the visitor back there, in its order
 */
public record Ticket(
    String visitor, QueueId queue, Instant issuedAt, String id, Instant joinedAt, double place) {

  /** A ticket issued when its visitor joined, naming no place. */
  public Ticket(String visitor, QueueId queue, Instant issuedAt, String id) {
    this(visitor, queue, issuedAt, id, issuedAt, Double.NaN);
  }
}
