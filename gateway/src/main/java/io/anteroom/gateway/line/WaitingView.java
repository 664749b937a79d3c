package io.anteroom.gateway.line;

import io.anteroom.queue.policy.RoomPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * What a waiting visitor is told, as the waiting page and the JSON status contract show it.
 *
 * @param state where the visitor stands
 * @param position 1-based place in line; 0 unless waiting
 * @param waiting people in line
 * @param eta the estimated wait; {@link WaitEstimate#NONE} without one (paused, closed, pre-queue)
 *     and unless waiting
 * @param pollAfterSeconds when to ask again
 * @param pollCeilingSeconds the longest a page may wait between polls, even in a hidden tab: a
 *     third of the abandon timeout
 * @param requeued true when the visitor's earlier place had been given up and they joined again
 * @param startsInSeconds in the pre-queue of a scheduled event, whole seconds until its start;
 *     otherwise 0
 * @param front true while the place is at the front, kept for visitors the origin failed right
 *     after admission: they will be let in again first
 * @param placeKeptSeconds how long the place is kept for a visitor who stops asking (a locked
 *     phone, a closed tab): the line's {@code abandon-after}; 0 when not said
 */
public record WaitingView(
    State state,
    long position,
    long waiting,
    WaitEstimate eta,
    long pollAfterSeconds,
    long pollCeilingSeconds,
    boolean requeued,
    long startsInSeconds,
    boolean front,
    long placeKeptSeconds) {

  /** A view of a place that is not at the front, without saying how long it is kept. */
  public WaitingView(
      State state,
      long position,
      long waiting,
      WaitEstimate eta,
      long pollAfterSeconds,
      long pollCeilingSeconds,
      boolean requeued,
      long startsInSeconds) {
    this(
        state,
        position,
        waiting,
        eta,
        pollAfterSeconds,
        pollCeilingSeconds,
        requeued,
        startsInSeconds,
        false,
        0);
  }

  /** A view with one estimated wait (or none: 0) outside a pre-queue. */
  public WaitingView(
      State state,
      long position,
      long waiting,
      long etaSeconds,
      long pollAfterSeconds,
      boolean requeued) {
    this(state, position, waiting, etaSeconds, pollAfterSeconds, requeued, 0);
  }

  /** A view with one estimated wait (or none: 0). */
  public WaitingView(
      State state,
      long position,
      long waiting,
      long etaSeconds,
      long pollAfterSeconds,
      boolean requeued,
      long startsInSeconds) {
    this(
        state,
        position,
        waiting,
        WaitEstimate.exactly(etaSeconds),
        pollAfterSeconds,
        pollAfterSeconds,
        requeued,
        startsInSeconds);
  }

  /**
   * The view of a visitor the line says is waiting: paused in a paused line, closed in the kept
   * line of a closed one, pre-queue before a scheduled start (the page asks again at the start at
   * the latest). Only a line that admits carries an estimate ({@link WaitEstimate}): from when the
   * running sessions end while the cap holds the place back, else from the rate.
   *
   * @param configuredRate admissions per second the settings allow the queue ({@link RoomShares})
   */
  public static WaitingView of(Line.Outcome outcome, RoomPolicy policy, double configuredRate) {
    State state =
        switch (policy.mode()) {
          case PAUSED -> State.PAUSED;
          case CLOSED -> State.CLOSED;
          default -> outcome.startsInSeconds() > 0 ? State.PRE_QUEUE : State.WAITING;
        };
    long startsIn = state == State.PRE_QUEUE ? outcome.startsInSeconds() : 0;
    WaitEstimate estimate =
        state == State.WAITING
            ? WaitEstimate.of(
                outcome.position(),
                outcome.measuredRate(),
                configuredRate,
                outcome.capWait(),
                policy)
            : WaitEstimate.NONE;
    long pollAfter = PollSchedule.pollAfterSeconds(outcome.position(), estimate, policy);
    if (outcome.joined()) {
      pollAfter = Math.min(pollAfter, PollSchedule.FIRST_POLL_SECONDS);
    }
    return new WaitingView(
        state,
        outcome.position(),
        outcome.waiting(),
        estimate,
        startsIn > 0 ? Math.min(pollAfter, startsIn) : pollAfter,
        PollSchedule.ceilingSeconds(policy),
        outcome.requeued(),
        startsIn,
        outcome.front(),
        policy.abandonAfter().toSeconds());
  }

  /** The middle of the estimated wait, for clients that show one number; 0 without an estimate. */
  public long etaSeconds() {
    return eta.midSeconds();
  }

  /** The short end of the estimated wait; 0 without an estimate. */
  public long etaMinSeconds() {
    return eta.minSeconds();
  }

  /** The long end of the estimated wait; 0 without an estimate. */
  public long etaMaxSeconds() {
    return eta.maxSeconds();
  }

  /**
   * The JSON of a visitor whose turn has come: the pass cookie is set, and the session it opens
   * ends unless used by {@code returnBy}, taking the place with it. {@code
   * {"state":"admitted",…,"admitted":true,"returnWithinSeconds":…,"returnBy":"…Z"}}.
   */
  public static String admittedJson(Instant now, Instant returnBy) {
    String json = new WaitingView(State.ADMITTED, 0, 0, 0, 0, false).toJson();
    long within = Math.max(0, Duration.between(now, returnBy).getSeconds());
    return json.substring(0, json.length() - 1)
        + ",\"returnWithinSeconds\":"
        + within
        + ",\"returnBy\":\""
        + returnBy.truncatedTo(ChronoUnit.SECONDS)
        + "\"}";
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
   * {"state":…,"position":…,"waiting":…,"etaSeconds":…,"etaMinSeconds":…,"etaMaxSeconds":…,
   * "pollAfterSeconds":…,"requeued":…,"admitted":…}}, in the pre-queue {@code "startsInSeconds":…},
   * at the front {@code "front":true}, and in line {@code "placeKeptSeconds":…}.
   */
  public String toJson() {
    return "{\"state\":\""
        + state.value()
        + "\",\"position\":"
        + position
        + ",\"waiting\":"
        + waiting
        + ",\"etaSeconds\":"
        + etaSeconds()
        + ",\"etaMinSeconds\":"
        + etaMinSeconds()
        + ",\"etaMaxSeconds\":"
        + etaMaxSeconds()
        + ",\"pollAfterSeconds\":"
        + pollAfterSeconds
        + ",\"requeued\":"
        + requeued
        + ",\"admitted\":"
        + (state == State.ADMITTED)
        + (state == State.PRE_QUEUE ? ",\"startsInSeconds\":" + startsInSeconds : "")
        + (front ? ",\"front\":true" : "")
        + (placeKeptSeconds > 0 ? ",\"placeKeptSeconds\":" + placeKeptSeconds : "")
        + "}";
  }
}
