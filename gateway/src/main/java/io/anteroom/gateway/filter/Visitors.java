package io.anteroom.gateway.filter;

import io.anteroom.gateway.identity.Identities;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who a request comes from: the pass and ticket in its cookies (every token turned away counted by
 * its reason), and, in a room that binds identities, the identity it names; and the ticket cookies
 * a visitor in line is given.
 */
final class Visitors {

  /**
   * A visitor without a pass for the queue asked for.
   *
   * @param pass their pass for other items of the room, or null
   * @param ticket their ticket, for this or another queue of the room, or null
   * @param known the id they are known by: the bound identity, else the pass's, else the ticket's;
   *     null for a newcomer
   */
  record Visitor(Pass pass, Ticket ticket, String known) {}

  private final AnteroomCookies cookies;
  private final TokenCodec tokens;
  private final Tickets tickets;
  private final Identities identities;
  private final Decisions decisions;
  private final Clock clock;

  Visitors(
      AnteroomCookies cookies,
      TokenCodec tokens,
      Tickets tickets,
      Identities identities,
      Decisions decisions,
      Clock clock) {
    this.cookies = cookies;
    this.tokens = tokens;
    this.tickets = tickets;
    this.identities = identities;
    this.decisions = decisions;
    this.clock = clock;
  }

  /** The request's pass cookie of {@code room} as it is, or null when none or several. */
  String passToken(ServerHttpRequest request, String room) {
    return cookies.pass(request, room);
  }

  /** The pass in {@code token} (the request's pass cookie, or null), or null. */
  Pass pass(ServerHttpRequest request, String room, String token) {
    if (token == null) {
      countRepeated(room, cookies.repeatsPass(request, room));
      return null;
    }
    return validOrCounted(room, tokens.readPass(token, room));
  }

  /**
   * The visitor without a pass for the queue: a room that binds identities knows them by the
   * identity, whatever the browser holds, and a ticket of another identity is not theirs.
   *
   * @param pass their pass for other items of the room, or null
   */
  Visitor visitor(ServerHttpRequest request, String room, RoomPolicy policy, Pass pass) {
    String bound = identities.visitor(room, request, policy.fairness().cutoff(clock.instant()));
    Ticket ticket = ticket(request, room, policy);
    if (bound != null && ticket != null && !ticket.visitor().equals(bound)) {
      ticket = null;
    }
    String known =
        bound != null
            ? bound
            : pass != null ? pass.visitor() : ticket != null ? ticket.visitor() : null;
    return new Visitor(pass, ticket, known);
  }

  /**
   * Whether the request carries an answer to a proof-of-work challenge of {@code room}, right or
   * wrong: its sender was given the challenge before, so it is no newcomer.
   */
  boolean answersChallenge(ServerHttpRequest request, String room) {
    return request.getHeaders().containsHeader(Proofs.HEADER)
        || cookies.proof(request, room) != null;
  }

  /** Renews a ticket that was just used, once it has used half its life. */
  void renew(ServerWebExchange exchange, Ticket ticket, RoomPolicy policy) {
    ResponseCookie renewed = tickets.renewal(ticket, policy);
    if (renewed != null) {
      exchange.getResponse().getCookies().set(renewed.getName(), renewed);
    }
  }

  /** Gives {@code visitor}, who joins the line of {@code queue} now, a ticket. */
  void joined(ServerWebExchange exchange, String visitor, QueueId queue) {
    ResponseCookie ticket = tickets.joined(visitor, queue);
    exchange.getResponse().getCookies().set(ticket.getName(), ticket);
  }

  /** The request's ticket, unless it has outlived the room's ticket life (counted as expired). */
  private Ticket ticket(ServerHttpRequest request, String room, RoomPolicy policy) {
    String token = cookies.ticket(request, room);
    if (token == null) {
      countRepeated(room, cookies.repeatsTicket(request, room));
      return null;
    }
    Ticket ticket = validOrCounted(room, tokens.readTicket(token, room));
    if (ticket != null && tickets.outlived(ticket, policy)) {
      decisions.rejectedToken(room, Rejection.EXPIRED);
      return null;
    }
    return ticket;
  }

  private void countRepeated(String room, boolean repeated) {
    if (repeated) {
      decisions.rejectedToken(room, Rejection.DUPLICATE);
    }
  }

  /** The token's value, or null after counting why it was rejected. */
  private <T> T validOrCounted(String room, Verified<T> token) {
    if (token instanceof Verified.Valid<T> valid) {
      return valid.value();
    }
    decisions.rejectedToken(room, ((Verified.Rejected<T>) token).reason());
    return null;
  }
}
