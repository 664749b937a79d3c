package io.anteroom.gateway.pass;

import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Instant;
import org.springframework.http.ResponseCookie;

/**
 * A waiting visitor's ticket: a claim to one place in one line, living {@link
 * RoomPolicy#ticketLife()} past its last use. Each use past half that life renews it, keeping when
 * the visitor joined.
 */
public final class Tickets {

  private final TokenCodec tokens;
  private final AnteroomCookies cookies;
  private final Clock clock;

  public Tickets(TokenCodec tokens, AnteroomCookies cookies, Clock clock) {
    this.tokens = tokens;
    this.cookies = cookies;
    this.clock = clock;
  }

  /** Whether {@code ticket} has outlived the room's ticket life since it was issued or renewed. */
  public boolean outlived(Ticket ticket, RoomPolicy policy) {
    return !clock.instant().isBefore(ticket.issuedAt().plus(policy.ticketLife()));
  }

  /** The cookie of a new ticket for {@code visitor}, who joins the line of {@code queue} now. */
  public ResponseCookie joined(String visitor, QueueId queue) {
    return cookies.ticket(queue.room(), tokens.issueTicket(visitor, queue));
  }

  /**
   * The cookie of a new ticket for {@code visitor}, who joined the line of {@code queue} now at
   * {@code place} (a score, NaN when not known).
   */
  public ResponseCookie joined(String visitor, QueueId queue, double place) {
    return cookies.ticket(queue.room(), tokens.issueTicket(visitor, queue, null, place));
  }

  /**
   * The cookie of a ticket for {@code visitor}, whom the origin failed right after the line
   * admitted them at {@code admittedAt}: sent back to the front of the line of {@code queue}. It
   * says they joined when they were admitted, so were the store to come back empty, they would
   * rejoin ahead of everyone who came later, among themselves in the order of their admissions.
   */
  public ResponseCookie reentered(String visitor, QueueId queue, Instant admittedAt) {
    return cookies.ticket(queue.room(), tokens.issueTicket(visitor, queue, admittedAt));
  }

  /** The cookie renewing {@code ticket} once it has used half its life; null while younger. */
  public ResponseCookie renewal(Ticket ticket, RoomPolicy policy) {
    Instant half = ticket.issuedAt().plus(policy.ticketLife().dividedBy(2));
    if (clock.instant().isBefore(half)) {
      return null;
    }
    return cookies.ticket(
        ticket.queue().room(),
        tokens.issueTicket(ticket.visitor(), ticket.queue(), ticket.joinedAt(), ticket.place()));
  }
}
