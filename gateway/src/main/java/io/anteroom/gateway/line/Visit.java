package io.anteroom.gateway.line;

import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.function.Supplier;

/**
 * One request to a queue as the gateway reads it before any Redis call ({@link Visits}): what the
 * visitor holds and who they are known as. {@link Turns} decides from it.
 *
 * @param queue the queue asked for
 * @param policy the queue's live policy
 * @param reads whether the request reads ({@code GET}, {@code HEAD}): only a read can wait in line
 * @param pass the visitor's valid pass of the room, for this item or others; null for none (or one
 *     the room no longer honours)
 * @param passToken the pass as the request carries it, or null
 * @param ticket the visitor's valid ticket of the room, for this queue or another; null for none
 * @param known the id the visitor is known by: the bound identity, else the pass's, else the
 *     ticket's; null for a newcomer
 * @param proof the answer to the room's puzzle the request carries, read only when needed
 * @param address the client address the room's new places per minute count, read only when needed
 * @param afterPass the visit of a holder whose pass opens the queue, read again as one without a
 *     pass for it (their ticket, their identity) once that session has ended; null when this visit
 *     was read so already
 */
public record Visit(
    QueueId queue,
    RoomPolicy policy,
    boolean reads,
    Pass pass,
    String passToken,
    Ticket ticket,
    String known,
    Supplier<Proofs.Answer> proof,
    Supplier<String> address,
    Supplier<Visit> afterPass) {

  /** Whether the visitor holds a ticket for this very queue. */
  public boolean ticketHere() {
    return ticket != null && ticket.queue().equals(queue);
  }

  /**
   * This visit with the pass left for the visitor's other items, after the session of this one
   * ended: the visitor meets the queue as anyone without a pass for it.
   */
  Visit passEnded() {
    return afterPass != null
        ? afterPass.get()
        : new Visit(queue, policy, reads, pass, null, ticket, known, proof, address, null);
  }
}
