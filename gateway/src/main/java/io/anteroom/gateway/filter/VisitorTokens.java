package io.anteroom.gateway.filter;

import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Reads a visitor's pass and ticket from their cookies, counting every token turned away by its
 * reason; and renews a ticket that is used.
 */
final class VisitorTokens {

  private final AnteroomCookies cookies;
  private final TokenCodec tokens;
  private final Tickets tickets;
  private final Decisions decisions;

  VisitorTokens(AnteroomCookies cookies, TokenCodec tokens, Tickets tickets, Decisions decisions) {
    this.cookies = cookies;
    this.tokens = tokens;
    this.tickets = tickets;
    this.decisions = decisions;
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

  /** The request's ticket, unless it has outlived the room's ticket life (counted as expired). */
  Ticket ticket(ServerHttpRequest request, String room, RoomPolicy policy) {
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

  /** Renews a ticket that was just used, once it has used half its life. */
  void renew(ServerWebExchange exchange, Ticket ticket, RoomPolicy policy) {
    ResponseCookie renewed = tickets.renewal(ticket, policy);
    if (renewed != null) {
      exchange.getResponse().getCookies().set(renewed.getName(), renewed);
    }
  }

  /** Gives {@code visitor} who joins the line of {@code queue} now a ticket. */
  void joined(ServerWebExchange exchange, String visitor, QueueId queue) {
    ResponseCookie ticket = tickets.joined(visitor, queue);
    exchange.getResponse().getCookies().set(ticket.getName(), ticket);
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
