package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.filter.Decisions.Decision;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.status.PollSchedule;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.gateway.status.WaitingView;
import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Instant;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The waiting room on one route. Per request, in this order: static assets pass; the request is
 * counted for activation by traffic; a valid pass for this queue passes (checked locally, no
 * Redis); then the queue's mode and state decide ({@link
 * io.anteroom.gateway.activation.QueueGate}): a queue that is off gives out a pass and passes, a
 * closed one shows the closed page, one that holds visitors puts them in line and answers with the
 * waiting page. When the line cannot be reached, the room's failure policy lets the visitor through
 * (marked) or answers 503. A room that binds identities knows visitors by them; a newcomer to a
 * line first passes the room's limits on new places (429 when over one).
 */
final class WaitingRoomFilter implements GatewayFilter, Ordered {

  /** A raw item id and its queue. */
  private record LastQueue(String rawItem, QueueId queue) {}

  private final String room;
  private final WaitingRoomContext context;

  /**
   * The queue of the item asked for last: during a rush most requests name the same item, and
   * checking its id again costs three regular expressions. Any thread may replace it; each value is
   * right for its own raw id.
   */
  private volatile LastQueue lastQueue;

  WaitingRoomFilter(String room, WaitingRoomContext context) {
    this.room = room;
    this.context = context;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 100;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    // Before anything else, bypass rules included: a refused spelling never reaches the origin.
    String item = context.itemIds(room).of(exchange);
    if (item == null) {
      context.decisions().count(room, Decision.INVALID_ITEM);
      return context.itemIds(room).refuse(exchange);
    }
    if (context.bypass(room).matches(exchange)) {
      context.decisions().count(room, Decision.BYPASSED);
      return context.forwarder().forward(exchange, chain, null);
    }
    QueueId queue = queue(item);
    RoomPolicy policy = context.policies().policy(queue);
    context.hits().record(queue, policy);
    String passToken = context.visitorTokens().passToken(request, room);
    Pass pass = context.visitorTokens().pass(request, room, passToken);
    Instant now = context.clock().instant();
    Entitlement entitlement = pass == null ? null : pass.entitlement(queue);
    if (entitlement != null) {
      if (policy.fairness().honours(pass.issuedAt(), now)) {
        if (!entitlement.dueAt(now, policy.sessionCheck())) {
          return holder(exchange, chain, queue, pass, passToken);
        }
        return context.gate().verdict(queue, policy) == QueueGate.Verdict.ENTER
            ? renewWhileOff(exchange, chain, queue, policy, pass, now)
            : recheck(exchange, chain, queue, policy, pass, passToken);
      }
      // Issued before a scheduled event's pre-queue opened: its holder lines up like anyone else.
      pass = null;
    }
    return byQueue(exchange, chain, queue, policy, pass);
  }

  private Mono<Void> holder(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      Pass pass,
      String passToken) {
    context.decisions().count(room, Decision.PASSED);
    return context.forwarder().forwardHolder(exchange, chain, queue, pass, passToken);
  }

  /**
   * A pass holder due for confirmation in a queue that is off, which anyone may enter: renewed
   * without asking Redis, and registered again as running (batched), as a newcomer would be.
   */
  private Mono<Void> renewWhileOff(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Instant now) {
    context.decisions().count(room, Decision.PASSED);
    return context
        .forwarder()
        .forwardWithPass(
            exchange,
            chain,
            queue,
            context.passes().renewed(pass, queue, now, policy),
            Forwarder.Given.QUEUE_OFF);
  }

  /**
   * A pass holder whose session is due to be confirmed: renewed while it runs; passing on the pass
   * as it is when Redis cannot say; and, once the session has ended, without that item in the pass,
   * meeting the queue as anyone else.
   */
  private Mono<Void> recheck(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      String passToken) {
    return context
        .checks()
        .confirm(queue, pass.visitor(), policy.sessionCheck())
        .flatMap(
            check ->
                switch (check.state()) {
                  case RUNNING -> {
                    context.decisions().count(room, Decision.PASSED);
                    yield context
                        .forwarder()
                        .forwardWithPass(
                            exchange,
                            chain,
                            queue,
                            context.passes().renewed(pass, queue, check.at(), policy),
                            Forwarder.Given.RENEWED);
                  }
                  case UNKNOWN -> holder(exchange, chain, queue, pass, passToken);
                  case ENDED -> {
                    context.decisions().rejectedToken(room, Rejection.SESSION_ENDED);
                    ResponseCookie rest =
                        context.passes().without(pass.visitor(), pass.entitlements(), queue);
                    exchange.getResponse().getCookies().set(rest.getName(), rest);
                    yield byQueue(exchange, chain, queue, policy, pass);
                  }
                });
  }

  /**
   * A visitor without a pass for this queue, as the queue's mode and state decide.
   *
   * @param pass the visitor's pass for other items of the room, or null
   */
  private Mono<Void> byQueue(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass) {
    ServerHttpRequest request = exchange.getRequest();
    // A room that binds identities knows a visitor by the identity, whatever the browser holds.
    String bound =
        context
            .identities()
            .visitor(room, request, policy.fairness().cutoff(context.clock().instant()));
    Ticket ticket = ownTicket(context.visitorTokens().ticket(request, room, policy), bound);
    String known =
        bound != null
            ? bound
            : pass != null ? pass.visitor() : ticket != null ? ticket.visitor() : null;
    return switch (context.gate().verdict(queue, policy)) {
      case ENTER -> enter(exchange, chain, queue, policy, pass, known);
      case CLOSED -> closed(exchange, queue, policy, ticket);
      case WAIT -> wait(exchange, chain, queue, policy, pass, ticket, known);
      case UNAVAILABLE -> withoutLine(exchange, chain, policy);
    };
  }

  /**
   * The closed page; or, for someone in the line a closed queue keeps, the waiting page saying it
   * is closed for now, which keeps polling so the place is not given up as abandoned.
   */
  private Mono<Void> closed(
      ServerWebExchange exchange, QueueId queue, RoomPolicy policy, Ticket ticket) {
    context.decisions().count(room, Decision.CLOSED);
    if (policy.closedLine() != ClosedLine.KEEP
        || ticket == null
        || !ticket.queue().equals(queue)
        || !isRead(exchange.getRequest().getMethod())) {
      return context.responses().closed(exchange, room);
    }
    return context
        .line()
        .standing(queue, ticket.visitor())
        .onErrorReturn(Optional.empty())
        .flatMap(
            standing -> {
              if (standing.isEmpty()) {
                return context.responses().closed(exchange, room);
              }
              context.visitorTokens().renew(exchange, ticket, policy);
              return context
                  .responses()
                  .waiting(exchange, room, WaitingView.of(standing.get(), policy));
            });
  }

  private Mono<Void> enter(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      String known) {
    String visitor = known != null ? known : VisitorIds.newVisitorId();
    context.decisions().count(room, Decision.PASSED);
    return context
        .forwarder()
        .forwardWithPass(
            exchange,
            chain,
            queue,
            context.passes().admitted(visitor, queue, pass, null, policy),
            Forwarder.Given.QUEUE_OFF);
  }

  private Mono<Void> wait(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Ticket ticket,
      String known) {
    ServerHttpRequest request = exchange.getRequest();
    if (!isRead(request.getMethod())) {
      context.decisions().count(room, Decision.REJECTED);
      return context
          .responses()
          .unavailable(
              exchange, PollSchedule.pollAfterSeconds(1, policy), "queue-active-body-cannot-wait");
    }
    if (pass != null) {
      context.decisions().rejectedToken(room, Rejection.WRONG_QUEUE);
    }
    if (ticket != null && !ticket.queue().equals(queue)) {
      context.decisions().rejectedToken(room, Rejection.WRONG_QUEUE);
    } else if (ticket != null) {
      return reach(
              exchange, queue, ticket, ticket.visitor(), context.line().find(queue, ticket, policy))
          .flatMap(
              reached ->
                  reached.isEmpty()
                      ? withoutLine(exchange, chain, policy)
                      : reached.get().isPresent()
                          ? placeFound(
                              exchange, chain, queue, policy, pass, ticket, reached.get().get())
                          // The place is gone: coming back goes through the defences again.
                          : newcomer(
                              exchange, chain, queue, policy, pass, ticket, ticket.visitor()));
    }
    return newcomer(exchange, chain, queue, policy, pass, ticket, known);
  }

  private Mono<Void> placeFound(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Ticket ticket,
      Line.Outcome outcome) {
    if (!outcome.admitted()) {
      context.gate().waiting(queue, policy, true, outcome.waiting());
      context.visitorTokens().renew(exchange, ticket, policy);
    }
    return afterLine(exchange, chain, queue, pass, policy, outcome);
  }

  /**
   * Someone without a place in this line takes one, once past the room's defences: the puzzle, then
   * the limits on new places.
   *
   * @param held the visitor's ticket: for this queue, whose place is gone; for another queue of the
   *     room, whose line the limit on queues per visitor counts; or null
   * @param known the visitor's id, or null for a visitor yet unknown
   */
  private Mono<Void> newcomer(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Ticket held,
      String known) {
    ServerHttpRequest request = exchange.getRequest();
    boolean here = held != null && held.queue().equals(queue);
    Ticket ticket = here ? held : null;
    String newcomer = known != null ? known : VisitorIds.newVisitorId();
    boolean minted = known == null;
    if (policy.proofOfWork() > 0) {
      Proofs.Answer answer = context.proofs().read(request, queue, policy.proofOfWork(), known);
      if (!(answer instanceof Proofs.Answer.Solved solved)) {
        return challenge(exchange, queue, policy, newcomer, answer);
      }
      newcomer = solved.visitor();
      minted = false;
      exchange.getResponse().addCookie(context.cookies().clearProof(room));
    }
    String joining = newcomer;
    boolean fresh = minted;
    Ticket claimed = !here && held != null && held.visitor().equals(joining) ? held : null;
    return context
        .places()
        .check(request, queue, joining, minted, claimed, policy)
        .flatMap(
            refusal ->
                refusal.isPresent()
                    ? refused(exchange, refusal.get())
                    : join(exchange, chain, queue, policy, pass, ticket, joining, fresh));
  }

  /** Turned away by a limit on new places: 429 with Retry-After, counted as rejected. */
  private Mono<Void> refused(ServerWebExchange exchange, PlaceGuard.Refusal refusal) {
    context.decisions().count(room, Decision.REJECTED);
    return context.limits().refused(exchange, room, refusal.reason(), refusal.retryAfterSeconds());
  }

  private Mono<Void> join(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Ticket ticket,
      String newcomer,
      boolean minted) {
    Mono<Line.Outcome> joined =
        context
            .line()
            .join(queue, newcomer, minted, policy)
            .doOnNext(
                outcome -> {
                  if (!outcome.admitted()) {
                    context.gate().waiting(queue, policy, ticket != null, outcome.waiting());
                  }
                });
    return reach(exchange, queue, ticket, newcomer, joined)
        .flatMap(
            outcome ->
                outcome.isPresent()
                    ? afterLine(exchange, chain, queue, pass, policy, outcome.get())
                    : withoutLine(exchange, chain, policy));
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
      context.decisions().rejectedToken(room, wrong.reason());
    }
    context.decisions().count(room, Decision.CHALLENGED);
    int difficulty = policy.proofOfWork();
    String challenge = context.proofs().challenge(visitor, queue, difficulty);
    return context.responses().challenge(exchange, room, challenge, difficulty);
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
    context
        .warnings()
        .warn(room, "room={} queue={} line unavailable: {}", room, queue.item(), error.toString());
    if (forThisQueue == null) {
      context.visitorTokens().joined(exchange, newcomer, queue);
    }
    return Mono.just(Optional.empty());
  }

  /** The line could not be reached: the room's failure policy decides. */
  private Mono<Void> withoutLine(
      ServerWebExchange exchange, GatewayFilterChain chain, RoomPolicy policy) {
    if (policy.failurePolicy() == FailurePolicy.OPEN) {
      context.decisions().count(room, Decision.FAILED_OPEN);
      return context.forwarder().forwardDegraded(exchange, chain);
    }
    context.decisions().count(room, Decision.FAILED_CLOSED);
    return context
        .responses()
        .lineUnavailable(exchange, room, WaitingResponses.LINE_UNAVAILABLE_RETRY_AFTER_SECONDS);
  }

  private Mono<Void> afterLine(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      Pass pass,
      RoomPolicy policy,
      Line.Outcome outcome) {
    if (outcome.admitted()) {
      context.decisions().count(room, Decision.PASSED);
      return context
          .forwarder()
          .forwardWithPass(
              exchange,
              chain,
              queue,
              context
                  .passes()
                  .admitted(outcome.visitor(), queue, pass, outcome.lastActivity(), policy),
              Forwarder.Given.FROM_LINE);
    }
    context.decisions().count(room, Decision.QUEUED);
    if (outcome.joined()) {
      context.visitorTokens().joined(exchange, outcome.visitor(), queue);
    }
    return context.responses().waiting(exchange, room, WaitingView.of(outcome, policy));
  }

  /** The ticket, unless the room binds identities and it belongs to another one. */
  private static Ticket ownTicket(Ticket ticket, String bound) {
    return bound != null && ticket != null && !ticket.visitor().equals(bound) ? null : ticket;
  }

  private QueueId queue(String rawItem) {
    LastQueue last = lastQueue;
    if (last != null && last.rawItem().equals(rawItem)) {
      return last.queue();
    }
    QueueId queue = QueueId.of(room, rawItem);
    lastQueue = new LastQueue(rawItem, queue);
    return queue;
  }

  private static boolean isRead(HttpMethod method) {
    return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
  }
}
