package io.anteroom.gateway.filter;

import io.anteroom.gateway.filter.Decisions.Decision;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.PollSchedule;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.gateway.status.WaitingView;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * How the filter answers each of its decisions, each counted once in {@link Decisions}: on to the
 * origin (with the pass the request carries, a pass given now, or none), or the waiting, closed,
 * challenge, limit and unavailable answers.
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

  /** A pass holder, with the pass the request carries ({@code token}). */
  Mono<Void> holder(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      String token) {
    decisions.count(queue.room(), Decision.PASSED);
    return forwarder.forwardHolder(exchange, chain, queue, policy, pass, token);
  }

  /** A visitor let in with a pass given now, as {@code given} says. */
  Mono<Void> withPass(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Passes.Issued pass,
      Forwarder.Given given) {
    decisions.count(queue.room(), Decision.PASSED);
    return forwarder.forwardWithPass(exchange, chain, queue, policy, pass, given);
  }

  /** Held in line: the waiting page, or its JSON. */
  Mono<Void> queued(ServerWebExchange exchange, String room, WaitingView view) {
    decisions.count(room, Decision.QUEUED);
    return responses.waiting(exchange, room, view);
  }

  /** The queue is closed: the closed page. */
  Mono<Void> closed(ServerWebExchange exchange, String room) {
    decisions.count(room, Decision.CLOSED);
    return responses.closed(exchange, room);
  }

  /** The queue is closed, and keeps the visitor's place: the waiting page saying so. */
  Mono<Void> closedKeepingPlace(ServerWebExchange exchange, String room, WaitingView view) {
    decisions.count(room, Decision.CLOSED);
    return responses.waiting(exchange, room, view);
  }

  /** A write (not GET or HEAD) to a queue that holds visitors: it cannot wait, 503. */
  Mono<Void> cannotWait(ServerWebExchange exchange, String room, RoomPolicy policy) {
    decisions.count(room, Decision.REJECTED);
    return responses.unavailable(
        exchange, PollSchedule.pollAfterSeconds(1, policy), "queue-active-body-cannot-wait");
  }

  /** Turned away by a limit on new places: 429 with Retry-After. */
  Mono<Void> refused(ServerWebExchange exchange, String room, PlaceGuard.Refusal refusal) {
    decisions.count(room, Decision.REJECTED);
    return limits.refused(exchange, room, refusal.reason(), refusal.retryAfterSeconds());
  }

  /** Asked to solve the room's puzzle before taking a place. */
  Mono<Void> challenge(ServerWebExchange exchange, String room, String challenge, int difficulty) {
    decisions.count(room, Decision.CHALLENGED);
    return responses.challenge(exchange, room, challenge, difficulty);
  }

  /** The line could not be reached: the room's failure policy decides. */
  Mono<Void> withoutLine(
      ServerWebExchange exchange, GatewayFilterChain chain, String room, RoomPolicy policy) {
    if (policy.failurePolicy() == FailurePolicy.OPEN) {
      decisions.count(room, Decision.FAILED_OPEN);
      return forwarder.forwardDegraded(exchange, chain, room);
    }
    decisions.count(room, Decision.FAILED_CLOSED);
    return responses.lineUnavailable(
        exchange, room, WaitingResponses.LINE_UNAVAILABLE_RETRY_AFTER_SECONDS);
  }

  /** A token that could not be used, by its reason. */
  void rejectedToken(String room, Rejection reason) {
    decisions.rejectedToken(room, reason);
  }
}
