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
 */
public record WaitingView(
    State state,
    long position,
    long waiting,
    long etaSeconds,
    long pollAfterSeconds,
    boolean requeued) {

  /**
   * The view of a visitor the line says is waiting: paused in a paused line, closed in the kept
   * line of a closed one.
   */
  public static WaitingView of(Line.Outcome outcome, RoomPolicy policy) {
    State state =
        switch (policy.mode()) {
          case PAUSED -> State.PAUSED;
          case CLOSED -> State.CLOSED;
          default -> State.WAITING;
        };
    return new WaitingView(
        state,
        outcome.position(),
        outcome.waiting(),
        PollSchedule.etaSeconds(outcome.position(), policy),
        PollSchedule.pollAfterSeconds(outcome.position(), policy),
        outcome.requeued());
  }

  /** The view of a visitor of a closed room or queue. */
  public static final WaitingView CLOSED = new WaitingView(State.CLOSED, 0, 0, 0, 0, false);

  /** States of the JSON contract. */
  public enum State {
    WAITING,
    ADMITTED,
    PAUSED,
    CLOSED,
    UNAVAILABLE;

    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The JSON body: {@code
   * {"state":…,"position":…,"waiting":…,"etaSeconds":…,"pollAfterSeconds":…}}.
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
        + "}";
  }
}
