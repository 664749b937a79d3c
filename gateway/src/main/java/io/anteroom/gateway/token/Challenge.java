package io.anteroom.gateway.token;

import io.anteroom.queue.QueueId;
import java.time.Instant;

/**
 * What a valid challenge says: this visitor may take a place in this queue once the puzzle of this
 * difficulty is solved. It opens nothing by itself.
 *
 * @param visitor the visitor id the place will be taken for
 * @param queue the queue the place is in
 * @param difficulty leading zero bits the solution's hash must have
 * @param issuedAt when it was issued (whole seconds)
 */
public record Challenge(String visitor, QueueId queue, int difficulty, Instant issuedAt) {}
