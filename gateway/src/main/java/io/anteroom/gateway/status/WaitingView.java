package io.anteroom.gateway.status;

import io.anteroom.gateway.filter.Line;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.Locale;

/**
 * What a waiting visitor is told, as the waiting page and the JSON status contract show it.
 *
 * @param state where the visitor stands
 * @param position 1-based place in line; 0 unless waiting
 * @param waiting people in line
 * @param etaSeconds estimated wait; at least 1 while waiting, 0 otherwise
 * @param pollAfterSeconds when to ask again
 * @param requeued true when the visitor's earlier place had been given up and they joined again
 * @param startsInSeconds in the pre-queue of a scheduled event, whole seconds until its start;
 *     otherwise 0
 */
public record WaitingView(
    State state,
    long position,
    long waiting,
    long etaSeconds,
    long pollAfterSeconds,
    boolean requeued,
    long startsInSeconds) {

  /** A view outside a pre-queue. */
  public WaitingView(
      State state,
      long position,
      long waiting,
      long etaSeconds,
      long pollAfterSeconds,
      boolean requeued) {
    this(state, position, waiting, etaSeconds, pollAfterSeconds, requeued, 0);
  }

  /**
   * The view of a visitor the line says is waiting: paused in a paused line, closed in the kept
   * line of a closed one, pre-queue before a scheduled start (the wait includes the time to it, and
   * the page asks again at the start at the latest).
   */
  public static WaitingView of(Line.Outcome outcome, RoomPolicy policy) {
    State state =
        switch (policy.mode()) {
          case PAUSED -> State.PAUSED;
          case CLOSED -> State.CLOSED;
          default -> outcome.startsInSeconds() > 0 ? State.PRE_QUEUE : State.WAITING;
        };
    long startsIn = state == State.PRE_QUEUE ? outcome.startsInSeconds() : 0;
    long pollAfter = PollSchedule.pollAfterSeconds(outcome.position(), policy);
    return new WaitingView(
        state,
        outcome.position(),
        outcome.waiting(),
        startsIn + PollSchedule.etaSeconds(outcome.position(), policy),
        startsIn > 0 ? Math.min(pollAfter, startsIn) : pollAfter,
        outcome.requeued(),
        startsIn);
  }

  /** The view of a visitor of a closed room or queue. */
  public static final WaitingView CLOSED = new WaitingView(State.CLOSED, 0, 0, 0, 0, false);

  /** States of the JSON contract. */
  public enum State {
    WAITING,
    ADMITTED,
    PAUSED,
    CLOSED,
    UNAVAILABLE,
    /** Waiting for a scheduled start; nobody is admitted before it. */
    PRE_QUEUE;

    public String value() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * The JSON body: {@code
   * {"state":…,"position":…,"waiting":…,"etaSeconds":…,"pollAfterSeconds":…}}, and in the pre-queue
   * {@code "startsInSeconds":…}.
   */
  public String toJson() {
    return "{\"state\":\""
        + state.value()
        + "\",\"position\":"
        + position
        + ",\"waiting\":"
        + waiting
        + ",\"etaSeconds\":"
        + etaSeconds
        + ",\"pollAfterSeconds\":"
        + pollAfterSeconds
        + ",\"requeued\":"
        + requeued
        + (state == State.PRE_QUEUE ? ",\"startsInSeconds\":" + startsInSeconds : "")
        + "}";
  }
}
