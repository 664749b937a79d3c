package io.anteroom.gateway.filter;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Lets the holder of a pass for the queue in. Between confirmations that is a local check, no Redis
 * call. Once the item's last confirmation is one {@link RoomPolicy#sessionCheck()} old, the session
 * is confirmed in Redis ({@link SessionChecks}) and the item renewed, or, when the session has
 * ended, taken out of the pass (at once when it ended through this gateway: released by the origin,
 * or sent back to the front of the line). While the item's queue is off, anyone may enter it: the
 * renewal is counted as an entry ({@link DirectEntry}), which keeps its holder an active user of
 * the room, and when Redis cannot be asked the pass goes on working until its end. In a room at its
 * limits a holder whose session ended in the meantime meets the room as a newcomer.
 */
final class PassHolders {

  private final QueueGate gate;
  private final DirectEntry direct;
  private final SessionChecks checks;
  private final Passes passes;
  private final Answers answers;
  private final Clock clock;

  PassHolders(
      QueueGate gate,
      DirectEntry direct,
      SessionChecks checks,
      Passes passes,
      Answers answers,
      Clock clock) {
    this.gate = gate;
    this.direct = direct;
    this.checks = checks;
    this.passes = passes;
    this.answers = answers;
    this.clock = clock;
  }

  /**
   * Whether the room honours {@code pass} now: not when it was issued before a scheduled event's
   * pre-queue opened.
   */
  boolean honours(Pass pass, RoomPolicy policy) {
    return policy.fairness().honours(pass.issuedAt(), clock.instant());
  }

  /**
   * Lets the holder of {@code pass}, which opens {@code queue}, in.
   *
   * @param token the pass as the request carries it
   * @param ended what becomes of a holder whose session in the queue has ended: the pass for their
   *     other items is handed on (or null when there are none)
   */
  Mono<Void> enter(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      String token,
      Function<Pass, Mono<Void>> ended) {
    Instant now = clock.instant();
    Entitlement entitlement = pass.entitlement(queue);
    if (!entitlement.dueAt(now, policy.sessionCheck())
        && !checks.endedSince(queue, pass.visitor(), entitlement.checked())) {
      return answers.holder(exchange, chain, queue, policy, pass, token);
    }
    if (gate.verdict(queue, policy, true) == QueueGate.Verdict.ENTER) {
      // Counted again in Redis, as a newcomer to a queue that is off would be: the renewal keeps
      // the holder an active user of the room.
      return direct
          .enter(queue, pass.visitor(), policy)
          .map(Optional::of)
          .onErrorReturn(Optional.empty())
          .flatMap(
              entered ->
                  entered.isEmpty()
                      ? answers.holder(exchange, chain, queue, policy, pass, token)
                      : entered.get()
                          ? answers.withPass(
                              exchange,
                              chain,
                              queue,
                              policy,
                              passes.renewed(pass, queue, now, policy),
                              Forwarder.Given.QUEUE_OFF)
                          : ended(exchange, queue, pass, ended));
    }
    return checks
        .confirm(queue, pass.visitor(), entitlement.checked(), policy)
        .flatMap(
            check ->
                switch (check.state()) {
                  case RUNNING ->
                      answers.withPass(
                          exchange,
                          chain,
                          queue,
                          policy,
                          passes.renewed(pass, queue, check.at(), policy),
                          Forwarder.Given.RENEWED);
                  case UNKNOWN -> answers.holder(exchange, chain, queue, policy, pass, token);
                  case ENDED -> ended(exchange, queue, pass, ended);
                });
  }

  /** The session in {@code queue} has ended: its item leaves the pass, and the holder goes on. */
  private Mono<Void> ended(
      ServerWebExchange exchange, QueueId queue, Pass pass, Function<Pass, Mono<Void>> ended) {
    answers.rejectedToken(queue.room(), Rejection.SESSION_ENDED);
    ResponseCookie rest = passes.without(pass.visitor(), pass.entitlements(), queue);
    exchange.getResponse().getCookies().set(rest.getName(), rest);
    return ended.apply(pass);
  }
}
