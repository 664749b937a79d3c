package io.anteroom.gateway.filter;

import io.anteroom.gateway.filter.Decisions.Decision;
import io.anteroom.gateway.line.PollSchedule;
import io.anteroom.gateway.line.Turn;
import io.anteroom.gateway.line.Verdict;
import io.anteroom.gateway.line.Visit;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * How the filter answers: a visitor's turn ({@link Turn}) as a forward to the origin (with the pass
 * the request carries, a pass given now, or none) or as the waiting, closed, challenge, limit and
 * unavailable answers, with the cookies the turn sets; and the requests the filter decides on
 * itself (bypassed, an item id refused). Each is counted once in {@link Decisions}.
 */
final class Answers {

  private final Forwarder forwarder;
  private final WaitingResponses responses;
  private final LimitResponses limits;
  private final Decisions decisions;

  Answers(
      Forwarder forwarder, WaitingResponses responses, LimitResponses limits, Decisions decisions) {
    this.forwarder = forwarder;
    this.responses = responses;
    this.limits = limits;
    this.decisions = decisions;
  }

  /** A request the room's bypass rules let through as it is. */
  Mono<Void> bypassed(ServerWebExchange exchange, GatewayFilterChain chain, String room) {
    decisions.count(room, Decision.BYPASSED);
    return forwarder.forward(exchange, chain, room, null);
  }

  /** An item id the room does not accept: refused as {@code refusal} answers, never forwarded. */
  Mono<Void> invalidItem(String room, Mono<Void> refusal) {
    decisions.count(room, Decision.INVALID_ITEM);
    return refusal;
  }

  /** The visitor's turn, answered with the cookies it sets. */
  Mono<Void> turn(ServerWebExchange exchange, GatewayFilterChain chain, Visit visit, Turn turn) {
    for (ResponseCookie cookie : turn.cookies()) {
      exchange.getResponse().getCookies().set(cookie.getName(), cookie);
    }
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    String room = queue.room();
    Verdict verdict = turn.verdict();
    if (verdict instanceof Verdict.Hold hold) {
      decisions.count(room, Decision.PASSED);
      return forwarder.forwardHolder(exchange, chain, queue, policy, hold.pass(), hold.token());
    }
    if (verdict instanceof Verdict.Admit admit) {
      decisions.count(room, Decision.PASSED);
      return forwarder.forwardWithPass(exchange, chain, queue, policy, admit.pass(), admit.given());
    }
    if (verdict instanceof Verdict.Wait wait) {
      decisions.count(room, Decision.QUEUED);
      return responses.waiting(exchange, room, wait.view());
    }
    if (verdict instanceof Verdict.Closed closed) {
      decisions.count(room, Decision.CLOSED);
      return closed.keptPlace() == null
          ? responses.closed(exchange, room)
          : responses.waiting(exchange, room, closed.keptPlace());
    }
    if (verdict instanceof Verdict.Challenge challenge) {
      decisions.count(room, Decision.CHALLENGED);
      return responses.challenge(exchange, room, challenge.challenge(), challenge.difficulty());
    }
    if (verdict instanceof Verdict.Refused refused) {
      decisions.count(room, Decision.REJECTED);
      return limits.refused(exchange, room, refused.refusal());
    }
    if (verdict instanceof Verdict.CannotWait) {
      decisions.count(room, Decision.REJECTED);
      return responses.unavailable(
          exchange, PollSchedule.pollAfterSeconds(1, policy), "queue-active-body-cannot-wait");
    }
    // Unavailable; or gone, which a turn of the filter never is (it takes a place).
    return withoutLine(exchange, chain, room, policy);
  }

  /** The line could not be reached: the room's failure policy decides. */
  private Mono<Void> withoutLine(
      ServerWebExchange exchange, GatewayFilterChain chain, String room, RoomPolicy policy) {
    if (policy.failurePolicy() == FailurePolicy.OPEN) {
      decisions.count(room, Decision.FAILED_OPEN);
      return forwarder.forwardDegraded(exchange, chain, room);
    }
    decisions.count(room, Decision.FAILED_CLOSED);
    return responses.lineUnavailable(
        exchange, room, WaitingResponses.LINE_UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
}
