package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.filter.Visitors.Visitor;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.status.RoomShares;
import io.anteroom.gateway.status.WaitingView;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Instant;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * A visitor without a pass for the queue, as the queue's state says: a queue that is off lets them
 * in with a pass; a closed one shows the closed page (or keeps their place in a line it keeps); one
 * that holds visitors finds the place of their ticket, or, for a newcomer and for a ticket whose
 * place is gone, takes a new one past the room's defences (the puzzle, then the limits on new
 * places), and answers with the waiting page or lets them in.
 */
final class LineEntry {

  private final Line line;
  private final PlaceGuard places;
  private final Proofs proofs;
  private final AnteroomCookies cookies;
  private final Visitors visitors;
  private final QueueGate gate;
  private final Passes passes;
  private final DirectEntry direct;
  private final RoomShares shares;
  private final Answers answers;
  private final ThrottledWarnings warnings;

  LineEntry(
      Line line,
      PlaceGuard places,
      Proofs proofs,
      AnteroomCookies cookies,
      Visitors visitors,
      QueueGate gate,
      Passes passes,
      DirectEntry direct,
      RoomShares shares,
      Answers answers,
      ThrottledWarnings warnings) {
    this.line = line;
    this.places = places;
    this.proofs = proofs;
    this.cookies = cookies;
    this.visitors = visitors;
    this.gate = gate;
    this.passes = passes;
    this.direct = direct;
    this.shares = shares;
    this.answers = answers;
    this.warnings = warnings;
  }

  /**
   * The queue is off: in, with a pass, counted as running ({@link DirectEntry}); in a room at its
   * limits, into the line instead.
   */
  Mono<Void> enter(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor) {
    String id = visitor.known() != null ? visitor.known() : VisitorIds.newVisitorId();
    return reach(exchange, queue, null, id, direct.enter(queue, id, policy))
        .flatMap(
            entered ->
                entered.isEmpty()
                    ? answers.withoutLine(exchange, chain, queue.room(), policy)
                    : entered.get()
                        ? answers.withPass(
                            exchange,
                            chain,
                            queue,
                            policy,
                            passes.direct(id, queue, visitor.pass(), policy),
                            Forwarder.Given.QUEUE_OFF)
                        : meet(exchange, chain, queue, policy, visitor));
  }

  /**
   * The closed page; or, for someone in the line a closed queue keeps, the waiting page saying it
   * is closed for now, which keeps polling so the place is not given up as abandoned.
   */
  Mono<Void> closed(ServerWebExchange exchange, QueueId queue, RoomPolicy policy, Visitor visitor) {
    Ticket ticket = visitor.ticket();
    if (policy.closedLine() != ClosedLine.KEEP
        || ticket == null
        || !ticket.queue().equals(queue)
        || !isRead(exchange.getRequest().getMethod())) {
      return answers.closed(exchange, queue.room());
    }
    return line.standing(queue, ticket.visitor())
        .onErrorReturn(Optional.empty())
        .flatMap(
            standing -> {
              if (standing.isEmpty()) {
                return answers.closed(exchange, queue.room());
              }
              visitors.renew(exchange, ticket, policy);
              return answers.closedKeepingPlace(
                  exchange,
                  queue.room(),
                  WaitingView.of(standing.get(), policy, shares.configuredRate(queue, policy)));
            });
  }

  /** The queue holds visitors: the place of the visitor's ticket, or a new one. */
  Mono<Void> meet(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor) {
    String room = queue.room();
    if (!isRead(exchange.getRequest().getMethod())) {
      return answers.cannotWait(exchange, room, policy);
    }
    if (visitor.pass() != null) {
      answers.rejectedToken(room, Rejection.WRONG_QUEUE);
    }
    Ticket ticket = visitor.ticket();
    if (ticket != null && !ticket.queue().equals(queue)) {
      answers.rejectedToken(room, Rejection.WRONG_QUEUE);
    } else if (ticket != null) {
      return reach(exchange, queue, ticket, ticket.visitor(), line.find(queue, ticket, policy))
          .flatMap(
              reached ->
                  reached.isEmpty()
                      ? answers.withoutLine(exchange, chain, room, policy)
                      : reached.get().isPresent()
                          ? placeFound(exchange, chain, queue, policy, visitor, reached.get().get())
                          // The place is gone: coming back goes through the defences again.
                          : newcomer(exchange, chain, queue, policy, visitor, ticket.visitor()));
    }
    return newcomer(exchange, chain, queue, policy, visitor, visitor.known());
  }

  private Mono<Void> placeFound(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor,
      Line.Outcome outcome) {
    if (!outcome.admitted()) {
      gate.waiting(queue, policy, true, outcome.waiting());
      visitors.renew(exchange, visitor.ticket(), policy);
    }
    return afterLine(exchange, chain, queue, policy, visitor, outcome);
  }

  /**
   * Someone without a place in this line takes one, once past the room's defences: the puzzle, then
   * the limits on new places. The visitor's ticket is for this queue when its place is gone; for
   * another queue of the room, the limit on queues per visitor counts that one's line.
   *
   * @param known the visitor's id, or null for a visitor yet unknown
   */
  private Mono<Void> newcomer(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor,
      String known) {
    String newcomer = known != null ? known : VisitorIds.newVisitorId();
    boolean minted = known == null;
    if (policy.proofOfWork() > 0) {
      Proofs.Answer answer = proofs.read(exchange.getRequest(), queue, policy.proofOfWork(), known);
      if (!(answer instanceof Proofs.Answer.Solved solved)) {
        return challenge(exchange, queue, policy, newcomer, answer);
      }
      newcomer = solved.visitor();
      minted = false;
      exchange.getResponse().addCookie(cookies.clearProof(queue.room()));
    }
    String joining = newcomer;
    boolean fresh = minted;
    Ticket held = visitor.ticket();
    boolean here = held != null && held.queue().equals(queue);
    Ticket elsewhere = !here && held != null && held.visitor().equals(joining) ? held : null;
    return places
        .check(exchange.getRequest(), queue, joining, minted, elsewhere, policy)
        .flatMap(
            refusal ->
                refusal.isPresent()
                    ? answers.refused(exchange, queue.room(), refusal.get())
                    : join(exchange, chain, queue, policy, visitor, here, joining, fresh));
  }

  /**
   * @param comingBack true when the visitor holds a ticket for this queue whose place was gone
   */
  private Mono<Void> join(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor,
      boolean comingBack,
      String newcomer,
      boolean minted) {
    Ticket ticket = visitor.ticket();
    Instant joinedAt = comingBack && ticket.visitor().equals(newcomer) ? ticket.joinedAt() : null;
    Mono<Line.Outcome> joined =
        line.join(queue, newcomer, minted, joinedAt, policy)
            .doOnNext(
                outcome -> {
                  if (!outcome.admitted()) {
                    gate.waiting(queue, policy, comingBack, outcome.waiting());
                  }
                });
    return reach(exchange, queue, comingBack ? ticket : null, newcomer, joined)
        .flatMap(
            outcome ->
                outcome.isPresent()
                    ? afterLine(exchange, chain, queue, policy, visitor, outcome.get())
                    : answers.withoutLine(exchange, chain, queue.room(), policy));
  }

  /**
   * The line's answer to {@code call}; empty when the line could not be reached (a Redis error, or
   * the breaker in front of Redis refusing). Only that failure means "unavailable": errors after it
   * belong to the origin.
   */
  private <T> Mono<Optional<T>> reach(
      ServerWebExchange exchange, QueueId queue, Ticket ticket, String visitor, Mono<T> call) {
    return call.map(Optional::of)
        .onErrorResume(error -> lineUnavailable(exchange, queue, ticket, visitor, error));
  }

  /**
   * Logs the failure. A newcomer still gets the ticket of the id they tried to join with: when
   * Redis ran the join after the gateway stopped waiting for it, their next request finds that
   * place instead of taking a second one (and joins with the same id if there is none).
   */
  private <T> Mono<Optional<T>> lineUnavailable(
      ServerWebExchange exchange,
      QueueId queue,
      Ticket forThisQueue,
      String newcomer,
      Throwable error) {
    warnings.warn(
        queue.room(),
        "room={} queue={} line unavailable: {}",
        queue.room(),
        queue.item(),
        error.toString());
    if (forThisQueue == null) {
      visitors.joined(exchange, newcomer, queue);
    }
    return Mono.just(Optional.empty());
  }

  /**
   * The room asks newcomers to solve a puzzle before they take a place: no Redis call until they
   * have. A wrong answer is counted and answered with a new challenge.
   */
  private Mono<Void> challenge(
      ServerWebExchange exchange,
      QueueId queue,
      RoomPolicy policy,
      String visitor,
      Proofs.Answer answer) {
    if (answer instanceof Proofs.Answer.Wrong wrong) {
      answers.rejectedToken(queue.room(), wrong.reason());
    }
    int difficulty = policy.proofOfWork();
    return answers.challenge(
        exchange, queue.room(), proofs.challenge(visitor, queue, difficulty), difficulty);
  }

  private Mono<Void> afterLine(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Visitor visitor,
      Line.Outcome outcome) {
    if (outcome.admitted()) {
      return answers.withPass(
          exchange,
          chain,
          queue,
          policy,
          passes.admitted(outcome.visitor(), queue, visitor.pass(), outcome.lastActivity(), policy),
          Forwarder.Given.FROM_LINE);
    }
    if (outcome.joined()) {
      visitors.joined(exchange, outcome.visitor(), queue);
    }
    return answers.queued(
        exchange,
        queue.room(),
        WaitingView.of(outcome, policy, shares.configuredRate(queue, policy)));
  }

  private static boolean isRead(HttpMethod method) {
    return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
  }
}
