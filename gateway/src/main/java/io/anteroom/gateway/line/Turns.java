package io.anteroom.gateway.line;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.line.Verdict.Closed;
import io.anteroom.gateway.line.Verdict.Given;
import io.anteroom.gateway.line.Verdict.Unavailable;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.shadow.ShadowJoins;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * The one owner of a visitor's turn: where a visitor stands and what they get, for the filter
 * ({@link #take}) and the status endpoint ({@link #poll}) alike. A pass for the queue lets its
 * holder in ({@link Holders}); otherwise the queue's mode and state decide ({@link QueueGate}): a
 * queue that is off lets them in with a pass counted on the way ({@link DirectEntry}), a closed one
 * answers closed (keeping a place in a line it keeps), one that holds visitors finds their place or
 * takes a new one ({@link Meeting}); a line that cannot be reached is {@link Unavailable}. Every
 * Redis call is one round trip through the breaker; none is made on the way to a decision the
 * gateway can take from memory.
 */
public final class Turns {

  private final QueueGate gate;
  private final Holders holders;
  private final Meeting meeting;
  private final DirectEntry direct;
  private final Line line;
  private final Passes passes;
  private final Tickets tickets;
  private final AnteroomCookies cookies;
  private final RoomShares shares;
  private final ShadowJoins shadow;

  Turns(
      QueueGate gate,
      Holders holders,
      Meeting meeting,
      DirectEntry direct,
      Line line,
      Passes passes,
      Tickets tickets,
      AnteroomCookies cookies,
      RoomShares shares,
      ShadowJoins shadow) {
    this.gate = gate;
    this.holders = holders;
    this.meeting = meeting;
    this.direct = direct;
    this.line = line;
    this.passes = passes;
    this.tickets = tickets;
    this.cookies = cookies;
    this.shares = shares;
    this.shadow = shadow;
  }

  /**
   * The turn of a request to a protected URL: a pass holder goes in, anyone else meets the queue
   * and, without a place, takes one past the room's defences.
   */
  public Mono<Turn> take(Visit visit) {
    Call call = new Call(visit, true, cookies);
    Pass pass = visit.pass();
    if (pass != null && pass.opens(visit.queue())) {
      return holders.enter(call, this::byQueue);
    }
    return byQueue(call);
  }

  /**
   * The turn of a ticket holder asking where they stand (the status endpoint): the same as {@link
   * #take}, but a place that is gone is {@link Verdict.Gone}, never taken again here.
   */
  public Mono<Turn> poll(Visit visit) {
    return byQueue(new Call(visit, false, cookies));
  }

  /** A visitor without a pass for this queue, as the queue's mode and state decide. */
  private Mono<Turn> byQueue(Call call) {
    Visit visit = call.visit();
    return switch (gate.verdict(visit.queue(), visit.policy(), visit.pass() != null)) {
      case ENTER -> enter(call);
      case CLOSED -> closed(call);
      case WAIT -> meeting.meet(call);
      case UNAVAILABLE -> call.answer(new Unavailable());
    };
  }

  /**
   * The queue is off: in, with a pass, counted as running ({@link DirectEntry}); in a room at its
   * limits, into the line instead. In shadow mode a newcomer joins the queue's virtual line first.
   */
  private Mono<Turn> enter(Call call) {
    Visit visit = call.visit();
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    if (call.takesPlace()) {
      shadow.arrived(queue, policy, visit.reads());
    }
    String id = visit.known() != null ? visit.known() : VisitorIds.newVisitorId();
    return meeting
        .reach(call, direct.enter(queue, id, policy), id)
        .flatMap(
            entered ->
                entered.isEmpty()
                    ? call.answer(new Unavailable())
                    : entered.get()
                        ? call.admit(
                            passes.direct(id, queue, visit.pass(), policy), Given.QUEUE_OFF)
                        : meeting.meet(call));
  }

  /**
   * Closed; or, for someone in the line a closed queue keeps, the waiting view saying it is closed
   * for now, whose polls keep the place from being given up as abandoned.
   */
  private Mono<Turn> closed(Call call) {
    Visit visit = call.visit();
    Ticket ticket = visit.ticket();
    RoomPolicy policy = visit.policy();
    if (policy.closedLine() != ClosedLine.KEEP || !visit.ticketHere() || !visit.reads()) {
      return call.answer(new Closed(null));
    }
    QueueId queue = visit.queue();
    return line.standing(queue, ticket.visitor())
        .onErrorReturn(Optional.empty())
        .flatMap(
            standing -> {
              if (standing.isEmpty()) {
                return call.answer(new Closed(null));
              }
              call.set(tickets.renewal(ticket, policy));
              return call.answer(
                  new Closed(
                      WaitingView.of(
                          standing.get(), policy, shares.configuredRate(queue, policy))));
            });
  }
}
