package io.anteroom.gateway.filter;

import io.anteroom.gateway.filter.Decisions.Decision;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.status.PollSchedule;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.gateway.status.WaitingView;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.Verified;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
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
    if (context.bypass(room).matches(request)) {
      context.decisions().count(room, Decision.BYPASSED);
      return context.forwarder().forward(exchange, chain, null);
    }
    QueueId queue = queue(context.itemSource(room).item(exchange));
    RoomPolicy policy = context.policies().policy(queue);
    context.hits().record(queue, policy);
    String passToken = context.cookies().pass(request, room);
    Pass pass = readPass(request, passToken);
    if (pass != null && pass.opens(queue)) {
      if (policy.fairness().honours(pass.issuedAt(), context.clock().instant())) {
        context.decisions().count(room, Decision.PASSED);
        return context.forwarder().forwardHolder(exchange, chain, queue, pass, passToken, policy);
      }
      // Issued before a scheduled event's pre-queue opened: its holder lines up like anyone else.
      pass = null;
    }
    // A room that binds identities knows a visitor by the identity, whatever the browser holds.
    String bound =
        context
            .identities()
            .visitor(room, request, policy.fairness().cutoff(context.clock().instant()));
    Ticket ticket = ownTicket(readTicket(request), bound);
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
            standing ->
                standing.isPresent()
                    ? context
                        .responses()
                        .waiting(exchange, room, WaitingView.of(standing.get(), policy))
                    : context.responses().closed(exchange, room));
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
        .forwardNewPass(
            exchange,
            chain,
            queue,
            visitor,
            Line.itemsAfter(pass, queue),
            policy.sessionDuration(),
            false);
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
    Ticket forThisQueue = null;
    if (ticket != null && ticket.queue().equals(queue)) {
      forThisQueue = ticket;
    } else if (ticket != null) {
      context.decisions().rejectedToken(room, Rejection.WRONG_QUEUE);
    }
    String newcomer = known != null ? known : VisitorIds.newVisitorId();
    boolean minted = known == null;
    if (forThisQueue == null && policy.proofOfWork() > 0) {
      Proofs.Answer answer = context.proofs().read(request, queue, policy.proofOfWork(), known);
      if (!(answer instanceof Proofs.Answer.Solved solved)) {
        return challenge(exchange, queue, policy, newcomer, answer);
      }
      newcomer = solved.visitor();
      minted = false;
      exchange.getResponse().addCookie(context.cookies().clearProof(room));
    }
    String joining = newcomer;
    Ticket elsewhere = ticket != null && ticket.visitor().equals(joining) ? ticket : null;
    Mono<Optional<PlaceGuard.Refusal>> limits =
        forThisQueue == null
            ? context.places().check(request, queue, joining, minted, elsewhere, policy)
            : Mono.just(Optional.empty());
    Ticket held = forThisQueue;
    boolean fresh = minted;
    return limits.flatMap(
        refusal ->
            refusal.isPresent()
                ? refused(exchange, refusal.get())
                : meet(exchange, chain, queue, policy, pass, held, joining, fresh));
  }

  /** Turned away by a limit on new places: 429 with Retry-After, counted as rejected. */
  private Mono<Void> refused(ServerWebExchange exchange, PlaceGuard.Refusal refusal) {
    context.decisions().count(room, Decision.REJECTED);
    return context.limits().refused(exchange, room, refusal.reason(), refusal.retryAfterSeconds());
  }

  private Mono<Void> meet(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      Ticket forThisQueue,
      String newcomer,
      boolean minted) {
    // Only a failure to reach the line (a Redis error, or the breaker in front of Redis refusing)
    // means "unavailable"; errors after it belong to the origin.
    return context
        .line()
        .meet(queue, forThisQueue, newcomer, minted, policy)
        .doOnNext(
            outcome -> {
              if (!outcome.admitted()) {
                context.gate().waiting(queue, policy, forThisQueue != null, outcome.waiting());
              }
            })
        .map(Optional::of)
        .onErrorResume(error -> lineUnavailable(exchange, queue, forThisQueue, newcomer, error))
        .flatMap(
            outcome ->
                outcome.isPresent()
                    ? afterLine(exchange, chain, queue, pass, policy, outcome.get())
                    : withoutLine(exchange, chain, policy));
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
  private Mono<Optional<Line.Outcome>> lineUnavailable(
      ServerWebExchange exchange,
      QueueId queue,
      Ticket forThisQueue,
      String newcomer,
      Throwable error) {
    context
        .warnings()
        .warn(room, "room={} queue={} line unavailable: {}", room, queue.item(), error.toString());
    if (forThisQueue == null) {
      exchange
          .getResponse()
          .addCookie(context.cookies().ticket(room, context.tokens().issueTicket(newcomer, queue)));
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
          .forwardNewPass(
              exchange,
              chain,
              queue,
              outcome.visitor(),
              Line.itemsAfter(pass, queue),
              outcome.passLifetime(policy.sessionDuration(), context.clock().instant()),
              true);
    }
    context.decisions().count(room, Decision.QUEUED);
    if (outcome.joined()) {
      exchange
          .getResponse()
          .addCookie(
              context
                  .cookies()
                  .ticket(room, context.tokens().issueTicket(outcome.visitor(), queue)));
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

  /** The pass in {@code token} (the request's pass cookie, or null). */
  private Pass readPass(ServerHttpRequest request, String token) {
    if (token == null) {
      countRepeated(context.cookies().repeatsPass(request, room));
      return null;
    }
    return validOrCounted(context.tokens().readPass(token, room));
  }

  private Ticket readTicket(ServerHttpRequest request) {
    String token = context.cookies().ticket(request, room);
    if (token == null) {
      countRepeated(context.cookies().repeatsTicket(request, room));
      return null;
    }
    return validOrCounted(context.tokens().readTicket(token, room));
  }

  private void countRepeated(boolean repeated) {
    if (repeated) {
      context.decisions().rejectedToken(room, Rejection.DUPLICATE);
    }
  }

  /** The token's value, or null after counting why it was rejected. */
  private <T> T validOrCounted(Verified<T> token) {
    if (token instanceof Verified.Valid<T> valid) {
      return valid.value();
    }
    context.decisions().rejectedToken(room, ((Verified.Rejected<T>) token).reason());
    return null;
  }

  private static boolean isRead(HttpMethod method) {
    return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
  }
}
