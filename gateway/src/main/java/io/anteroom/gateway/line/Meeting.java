package io.anteroom.gateway.line;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.line.Verdict.CannotWait;
import io.anteroom.gateway.line.Verdict.Challenge;
import io.anteroom.gateway.line.Verdict.Given;
import io.anteroom.gateway.line.Verdict.Gone;
import io.anteroom.gateway.line.Verdict.Refused;
import io.anteroom.gateway.line.Verdict.Unavailable;
import io.anteroom.gateway.line.Verdict.Wait;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.token.Rejection;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * A visitor without a pass for a queue that holds visitors: the place of their ticket, or, for a
 * newcomer and for a ticket whose place is gone, a new one past the room's defences (the puzzle,
 * then the limits on new places), answered with the waiting view or a pass. When the line cannot be
 * reached, {@link Unavailable}; a newcomer still gets the ticket of the id tried, so a join Redis
 * ran after the gateway stopped waiting is found, not doubled.
 */
final class Meeting {

  private final Line line;
  private final PlaceGuard places;
  private final Proofs proofs;
  private final QueueGate gate;
  private final Passes passes;
  private final Tickets tickets;
  private final AnteroomCookies cookies;
  private final RoomShares shares;
  private final TokenRejections rejections;
  private final ThrottledWarnings warnings;

  Meeting(
      Line line,
      PlaceGuard places,
      Proofs proofs,
      QueueGate gate,
      Passes passes,
      Tickets tickets,
      AnteroomCookies cookies,
      RoomShares shares,
      TokenRejections rejections,
      ThrottledWarnings warnings) {
    this.line = line;
    this.places = places;
    this.proofs = proofs;
    this.gate = gate;
    this.passes = passes;
    this.tickets = tickets;
    this.cookies = cookies;
    this.shares = shares;
    this.rejections = rejections;
    this.warnings = warnings;
  }

  /** The queue holds visitors: the place of the visitor's ticket, or a new one. */
  Mono<Turn> meet(Call call) {
    Visit visit = call.visit();
    String room = visit.queue().room();
    if (!visit.reads()) {
      return call.answer(new CannotWait());
    }
    if (visit.pass() != null) {
      rejections.rejected(room, Rejection.WRONG_QUEUE);
    }
    Ticket ticket = visit.ticket();
    if (ticket != null && !visit.ticketHere()) {
      rejections.rejected(room, Rejection.WRONG_QUEUE);
    } else if (ticket != null) {
      return reach(call, line.find(visit.queue(), ticket, visit.policy()))
          .flatMap(
              reached ->
                  reached.isEmpty()
                      ? call.answer(new Unavailable())
                      : reached.get().isPresent()
                          ? placeFound(call, reached.get().get())
                          // The place is gone: coming back goes through the defences again.
                          : newcomer(call, ticket.visitor()));
    }
    return newcomer(call, visit.known());
  }

  /**
   * The line's answer to {@code lineCall}; empty when the line could not be reached (a Redis error,
   * or the breaker in front of Redis refusing), after a warning. A visitor without a ticket for
   * this queue is given one for the id they tried: when Redis ran the call after the gateway
   * stopped waiting for it, their next request finds that place instead of taking a second one.
   */
  <T> Mono<Optional<T>> reach(Call call, Mono<T> lineCall, String tried) {
    return lineCall
        .map(Optional::of)
        .onErrorResume(
            error -> {
              QueueId queue = call.visit().queue();
              warnings.warn(
                  queue.room(),
                  "room={} queue={} line unavailable: {}",
                  queue.room(),
                  queue.item(),
                  error.toString());
              if (tried != null && !call.visit().ticketHere()) {
                call.set(tickets.joined(tried, queue));
              }
              return Mono.just(Optional.empty());
            });
  }

  private <T> Mono<Optional<T>> reach(Call call, Mono<T> lineCall) {
    return reach(call, lineCall, null);
  }

  private Mono<Turn> placeFound(Call call, Line.Outcome outcome) {
    Visit visit = call.visit();
    if (!outcome.admitted()) {
      gate.waiting(visit.queue(), visit.policy(), true, outcome.waiting());
      call.set(tickets.renewal(visit.ticket(), visit.policy()));
    }
    return afterLine(call, outcome);
  }

  /**
   * Someone without a place in this line takes one, once past the room's defences: the puzzle, then
   * the limits on new places. The visitor's ticket is for this queue when its place is gone; for
   * another queue of the room, the limit on queues per visitor counts that one's line. A turn that
   * takes no place (the status endpoint's) stops here: the place is gone.
   *
   * @param known the visitor's id, or null for a visitor yet unknown
   */
  private Mono<Turn> newcomer(Call call, String known) {
    if (!call.takesPlace()) {
      return call.answer(new Gone());
    }
    Visit visit = call.visit();
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    String newcomer = known != null ? known : VisitorIds.newVisitorId();
    boolean minted = known == null;
    if (policy.proofOfWork() > 0) {
      Proofs.Answer answer = visit.proof().get();
      if (!(answer instanceof Proofs.Answer.Solved solved)) {
        return challenge(call, newcomer, answer);
      }
      newcomer = solved.visitor();
      minted = false;
      call.set(cookies.clearProof(queue.room()));
    }
    String joining = newcomer;
    boolean fresh = minted;
    Ticket held = visit.ticket();
    boolean here = visit.ticketHere();
    Ticket elsewhere = !here && held != null && held.visitor().equals(joining) ? held : null;
    return places
        .check(visit, joining, minted, elsewhere)
        .flatMap(
            refusal ->
                refusal.isPresent()
                    ? call.answer(new Refused(refusal.get()))
                    : join(call, here, joining, fresh));
  }

  /**
   * @param comingBack true when the visitor holds a ticket for this queue whose place was gone
   */
  private Mono<Turn> join(Call call, boolean comingBack, String newcomer, boolean minted) {
    Visit visit = call.visit();
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    Ticket ticket = visit.ticket();
    Ticket back = comingBack && ticket.visitor().equals(newcomer) ? ticket : null;
    Mono<Line.Outcome> joined =
        line.join(queue, newcomer, minted, back, policy)
            .doOnNext(
                outcome -> {
                  if (!outcome.admitted()) {
                    gate.waiting(queue, policy, comingBack, outcome.waiting());
                  }
                });
    return reach(call, joined, newcomer)
        .flatMap(
            outcome ->
                outcome.isPresent()
                    ? afterLine(call, outcome.get())
                    : call.answer(new Unavailable()));
  }

  /**
   * The room asks newcomers to solve a puzzle before they take a place: no Redis call until they
   * have. A wrong answer is counted and answered with a new challenge.
   */
  private Mono<Turn> challenge(Call call, String visitor, Proofs.Answer answer) {
    QueueId queue = call.visit().queue();
    if (answer instanceof Proofs.Answer.Wrong wrong) {
      rejections.rejected(queue.room(), wrong.reason());
    }
    int difficulty = call.visit().policy().proofOfWork();
    return call.answer(new Challenge(proofs.challenge(visitor, queue, difficulty), difficulty));
  }

  private Mono<Turn> afterLine(Call call, Line.Outcome outcome) {
    Visit visit = call.visit();
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    if (outcome.admitted()) {
      return call.admit(
          passes.admitted(
              outcome.visitor(),
              queue,
              visit.pass(),
              outcome.lastActivity(),
              outcome.admission(),
              policy),
          Given.FROM_LINE);
    }
    if (outcome.joined()) {
      call.set(tickets.joined(outcome.visitor(), queue, outcome.place()));
    }
    return call.answer(
        new Wait(WaitingView.of(outcome, policy, shares.configuredRate(queue, policy))));
  }
}
