package io.anteroom.gateway.line;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.line.Verdict.Given;
import io.anteroom.gateway.line.Verdict.Hold;
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
import reactor.core.publisher.Mono;

/**
 * The holder of a pass for the queue. Between confirmations that is a local check, no Redis call.
 * Once the item's last confirmation is one {@link RoomPolicy#sessionCheck()} old, the session is
 * confirmed in Redis ({@link SessionChecks}) and the item renewed, or, when the session has ended,
 * taken out of the pass (at once when it ended through this gateway: released by the origin, or
 * sent back to the front of the line; a pass confirmed before an end this gateway forgot to keep
 * its memory bounded is confirmed in Redis at once). While the item's queue is off, anyone may
 * enter it: the renewal is counted as an entry ({@link DirectEntry}), which keeps its holder an
 * active user of the room, and when Redis cannot be asked the pass goes on working until its end.
 * In a room at its limits a holder whose session ended in the meantime meets the room as a
 * newcomer.
 */
final class Holders {

  private final QueueGate gate;
  private final DirectEntry direct;
  private final SessionChecks checks;
  private final Passes passes;
  private final TokenRejections rejections;
  private final Clock clock;

  Holders(
      QueueGate gate,
      DirectEntry direct,
      SessionChecks checks,
      Passes passes,
      TokenRejections rejections,
      Clock clock) {
    this.gate = gate;
    this.direct = direct;
    this.checks = checks;
    this.passes = passes;
    this.rejections = rejections;
    this.clock = clock;
  }

  /**
   * Lets the holder of the visit's pass, which opens its queue, in.
   *
   * @param ended what becomes of a holder whose session in the queue has ended: the call goes on
   *     with the pass for their other items
   */
  Mono<Turn> enter(Call call, Function<Call, Mono<Turn>> ended) {
    Visit visit = call.visit();
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    Pass pass = visit.pass();
    Instant now = clock.instant();
    Entitlement entitlement = pass.entitlement(queue);
    if (!entitlement.dueAt(now, policy.sessionCheck())
        && !checks.mayHaveEndedSince(queue, pass.visitor(), entitlement.checked())) {
      return call.answer(new Hold(pass, visit.passToken()));
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
                      ? call.answer(new Hold(pass, visit.passToken()))
                      : entered.get()
                          ? call.admit(passes.renewed(pass, queue, now, policy), Given.QUEUE_OFF)
                          : ended(call, ended));
    }
    return checks
        .confirm(queue, pass.visitor(), entitlement.checked(), policy)
        .flatMap(
            check ->
                switch (check.state()) {
                  case RUNNING ->
                      call.admit(passes.renewed(pass, queue, check.at(), policy), Given.RENEWED);
                  case UNKNOWN -> call.answer(new Hold(pass, visit.passToken()));
                  case ENDED -> ended(call, ended);
                });
  }

  /** The session in the queue has ended: its item leaves the pass, and the holder goes on. */
  private Mono<Turn> ended(Call call, Function<Call, Mono<Turn>> ended) {
    Visit visit = call.visit();
    Pass pass = visit.pass();
    rejections.rejected(visit.queue().room(), Rejection.SESSION_ENDED);
    call.set(passes.without(pass.visitor(), pass.entitlements(), visit.queue()));
    call.visit(visit.passEnded());
    return ended.apply(call);
  }
}
