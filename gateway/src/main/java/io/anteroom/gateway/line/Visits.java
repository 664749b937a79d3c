package io.anteroom.gateway.line;

import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.identity.Identities;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Who a request comes from ({@link Visit}), for the filter and the status endpoint alike: the pass
 * and ticket in its cookies (every token turned away counted by its reason), and, in a room that
 * binds identities, the identity it names, whose visitor a ticket of another identity is not.
 */
public final class Visits {

  private final AnteroomCookies cookies;
  private final TokenCodec tokens;
  private final Tickets tickets;
  private final Identities identities;
  private final Proofs proofs;
  private final ClientAddress addresses;
  private final RoomPolicyMirror policies;
  private final TokenRejections rejections;
  private final Clock clock;

  public Visits(
      AnteroomCookies cookies,
      TokenCodec tokens,
      Tickets tickets,
      Identities identities,
      Proofs proofs,
      ClientAddress addresses,
      RoomPolicyMirror policies,
      TokenRejections rejections,
      Clock clock) {
    this.cookies = cookies;
    this.tokens = tokens;
    this.tickets = tickets;
    this.identities = identities;
    this.proofs = proofs;
    this.addresses = addresses;
    this.policies = policies;
    this.rejections = rejections;
    this.clock = clock;
  }

  /** The request's pass cookie of {@code room} as it is, or null when none or several. */
  public String passToken(ServerHttpRequest request, String room) {
    return cookies.pass(request, room);
  }

  /** The pass in {@code token} (the request's pass cookie, or null), or null. */
  public Pass pass(ServerHttpRequest request, String room, String token) {
    if (token == null) {
      countRepeated(room, cookies.repeatsPass(request, room));
      return null;
    }
    return validOrCounted(room, tokens.readPass(token, room));
  }

  /**
   * A request to {@code queue}: a room that binds identities knows the visitor by the identity,
   * whatever the browser holds, and a ticket of another identity is not theirs.
   *
   * @param pass the visitor's pass of the room, or null; one issued before a scheduled event's
   *     pre-queue opened counts as none for the queue it opens
   * @param token the pass as the request carries it, or null
   */
  public Visit visit(
      ServerHttpRequest request, QueueId queue, RoomPolicy policy, Pass pass, String token) {
    if (pass != null && pass.opens(queue)) {
      if (!policy.fairness().honours(pass.issuedAt(), clock.instant())) {
        // Issued before a scheduled event's pre-queue opened: its holder lines up like anyone else.
        return read(request, queue, policy, null, null);
      }
      // A holder: their ticket and identity are read only if the session has ended.
      return new Visit(
          queue,
          policy,
          reads(request),
          pass,
          token,
          null,
          pass.visitor(),
          null,
          null,
          () -> read(request, queue, policy, pass, null));
    }
    return read(request, queue, policy, pass, token);
  }

  /** The visit of one without a pass for {@code queue}: their ticket and identity read. */
  private Visit read(
      ServerHttpRequest request, QueueId queue, RoomPolicy policy, Pass pass, String token) {
    String room = queue.room();
    String bound = identities.visitor(room, request, policy.fairness().cutoff(clock.instant()));
    Ticket ticket = ticket(request, room, policy);
    if (bound != null && ticket != null && !ticket.visitor().equals(bound)) {
      ticket = null;
    }
    String known =
        bound != null
            ? bound
            : pass != null ? pass.visitor() : ticket != null ? ticket.visitor() : null;
    return new Visit(
        queue,
        policy,
        reads(request),
        pass,
        token,
        ticket,
        known,
        () -> proofs.read(request, queue, policy.proofOfWork(), known),
        () -> addresses.countedAs(request).orElse("unknown"),
        null);
  }

  private static boolean reads(ServerHttpRequest request) {
    HttpMethod method = request.getMethod();
    return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
  }

  /**
   * A poll of the status endpoint of {@code room}: the visit to the queue of the visitor's ticket,
   * with their pass of the room; empty without a ticket that is theirs.
   */
  public Optional<Visit> poll(ServerHttpRequest request, String room) {
    String token = cookies.ticket(request, room);
    if (token == null) {
      return Optional.empty();
    }
    Ticket held = validOrCounted(room, tokens.readTicket(token, room));
    RoomPolicy policy = held == null ? null : policies.policy(held.queue());
    if (policy == null) {
      return Optional.empty();
    }
    String passToken = passToken(request, room);
    Pass pass = pass(request, room, passToken);
    Visit visit = visit(request, held.queue(), policy, pass, passToken);
    return visit.ticketHere() ? Optional.of(visit) : Optional.empty();
  }

  /**
   * Whether the request carries an answer to a proof-of-work challenge of {@code room}, right or
   * wrong: its sender was given the challenge before, so it is no newcomer.
   */
  public boolean answersChallenge(ServerHttpRequest request, String room) {
    return request.getHeaders().containsHeader(Proofs.HEADER)
        || cookies.proof(request, room) != null;
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
      rejections.rejected(room, Rejection.EXPIRED);
      return null;
    }
    return ticket;
  }

  private void countRepeated(String room, boolean repeated) {
    if (repeated) {
      rejections.rejected(room, Rejection.DUPLICATE);
    }
  }

  /** The token's value, or null after counting why it was rejected. */
  private <T> T validOrCounted(String room, Verified<T> token) {
    if (token instanceof Verified.Valid<T> valid) {
      return valid.value();
    }
    rejections.rejected(room, ((Verified.Rejected<T>) token).reason());
    return null;
  }
}
