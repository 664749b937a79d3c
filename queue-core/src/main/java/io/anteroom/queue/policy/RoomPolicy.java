package io.anteroom.queue.policy;

import java.time.Duration;
import java.time.Instant;

/**
 * How a room admits people: the values the queue scripts need. Built by {@link PolicyParser} from
 * YAML and live overrides; every value is checked here, so an invalid policy cannot exist. Problems
 * are reported all at once as an {@link InvalidPolicyException}.
 *
 * @param admitPerSecond {@code admit-per-second}: people let in per second, decimals allowed;
 *     default 10
 * @param admitBurst {@code admit-burst}: how much unused admission time may accumulate, as a
 *     duration of the rate; default 1s (a full second's worth)
 * @param maxActive {@code max-active}: most sessions running at once; default 1000
 * @param sessionDuration {@code session-duration}: an admitted session ends after this long without
 *     activity; default 10m
 * @param abandonAfter {@code abandon-after}: a waiting visitor who has not polled for this long
 *     gives up the place; default 5m, long enough for a phone locked a while (its page stops
 *     polling at once)
 * @param admitBatch {@code admit-batch}: most visitors one admission call moves (the worker makes
 *     several calls per tick when needed); default 100, which keeps one call under a millisecond
 * @param finishedRetention {@code finished-retention}: how long finished visitors are kept for
 *     status and counts; default 1h
 * @param mode {@code mode}: {@code queue}, {@code queue-all}, {@code paused}, {@code passthrough},
 *     {@code shadow} or {@code closed} ({@link Mode}); default queue
 * @param activateAbove {@code activate-above}: requests per second to one item, averaged over the
 *     activation window, that turn its queue on; 0 turns automatic activation off; default 0
 * @param deactivateBelow {@code deactivate-below}: requests per second under which an automatically
 *     activated, empty queue counts as quiet; default half of activate-above
 * @param activationWindow {@code activation-window}: the window traffic is averaged over, whole
 *     seconds from 1s to 60s; default 3s
 * @param coolDown {@code cool-down}: how long a queue that was turned on by traffic must stay empty
 *     and quiet before the worker turns it off; default 1m
 * @param closedLine {@code closed-line}: {@code keep} or {@code clear} the line while closed;
 *     default keep
 * @param failurePolicy {@code failure-policy}: {@code open} or {@code closed} for visitors without
 *     a pass when the line cannot be reached; default closed
 * @param proofOfWork {@code proof-of-work}: leading zero bits of the SHA-256 puzzle a newcomer's
 *     browser solves before taking a place, 0 to 24 (each bit doubles the work; 16 is about 65,000
 *     hashes, about half a second in a desktop browser); default 0, no puzzle
 * @param passRecheck {@code pass-recheck}: how often a pass holder's session is confirmed in Redis;
 *     a copy of a pass whose session ended stops opening its queue within this long; default 60s
 *     (never longer in effect than a tenth of the session duration, {@link #sessionCheck()})
 * @param fairness queueing method, scheduled event and caps on places ({@link Fairness}); default
 *     first come, first served without caps
 * @param budget the room's limits across its queues and the queue's weight in them ({@link
 *     Budget}); default no room-wide limits
 * @param autopilot whether the origin's health sets the room's pace, and its bounds ({@link
 *     Autopilot}); default off
 * @param reentry whether visitors the origin failed right after admission go back to the front
 *     ({@link Reentry}); default within 30 s, at most twice
 * @param recordArrivals {@code record-arrivals}: the share of newcomers whose arrival the gateways
 *     record, from 0 to 1, set per room; default 0, recording off
 */
public record RoomPolicy(
    double admitPerSecond,
    Duration admitBurst,
    int maxActive,
    Duration sessionDuration,
    Duration abandonAfter,
    int admitBatch,
    Duration finishedRetention,
    Mode mode,
    double activateAbove,
    double deactivateBelow,
    Duration activationWindow,
    Duration coolDown,
    ClosedLine closedLine,
    FailurePolicy failurePolicy,
    int proofOfWork,
    Duration passRecheck,
    Fairness fairness,
    Budget budget,
    Autopilot autopilot,
    Reentry reentry,
    double recordArrivals) {

  /** The {@code deactivate-below} value meaning "half of activate-above". */
  static final double HALF_OF_ACTIVATE_ABOVE = -1;

  static final Duration MAX_ACTIVATION_WINDOW = Duration.ofSeconds(60);

  /** The built-in defaults, under any YAML defaults and room values. */
  public static final RoomPolicy DEFAULTS =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          1000,
          Duration.ofMinutes(10),
          Duration.ofMinutes(5),
          100,
          Duration.ofHours(1),
          Mode.QUEUE,
          0,
          HALF_OF_ACTIVATE_ABOVE,
          Duration.ofSeconds(3),
          Duration.ofMinutes(1),
          ClosedLine.KEEP,
          FailurePolicy.CLOSED,
          0,
          Duration.ofSeconds(60),
          Fairness.DEFAULTS,
          Budget.DEFAULTS,
          Autopilot.DEFAULTS,
          Reentry.DEFAULTS,
          0);

  /** The hardest puzzle a room may set: about 16 million hashes on average. */
  public static final int MAX_PROOF_OF_WORK = 24;

  /** Most visitors one admission call may move; keeps a script call short. */
  static final int MAX_ADMIT_BATCH = 5000;

  public RoomPolicy {
    new PolicyChecks()
        .require(
            admitPerSecond > 0 && admitPerSecond <= 1_000_000,
            PolicyProperty.ADMIT_PER_SECOND,
            "must be above 0 and at most 1000000")
        .positive(admitBurst, PolicyProperty.ADMIT_BURST)
        .require(maxActive >= 1, PolicyProperty.MAX_ACTIVE, "must be at least 1")
        .positive(sessionDuration, PolicyProperty.SESSION_DURATION)
        .positive(abandonAfter, PolicyProperty.ABANDON_AFTER)
        .require(
            admitBatch >= 1 && admitBatch <= MAX_ADMIT_BATCH,
            PolicyProperty.ADMIT_BATCH,
            "must be between 1 and " + MAX_ADMIT_BATCH)
        .positive(finishedRetention, PolicyProperty.FINISHED_RETENTION)
        .set(mode, PolicyProperty.MODE)
        .require(
            activateAbove >= 0 && activateAbove <= 1_000_000_000,
            PolicyProperty.ACTIVATE_ABOVE,
            "must be between 0 and 1000000000")
        .require(
            deactivateBelow == HALF_OF_ACTIVATE_ABOVE
                || (deactivateBelow >= 0 && deactivateBelow <= activateAbove),
            PolicyProperty.DEACTIVATE_BELOW,
            "must be between 0 and activate-above (" + activateAbove + ")")
        .require(
            wholeSecondsUpToAMinute(activationWindow),
            PolicyProperty.ACTIVATION_WINDOW,
            "must be whole seconds from 1s to 60s")
        .positive(coolDown, PolicyProperty.COOL_DOWN)
        .set(closedLine, PolicyProperty.CLOSED_LINE)
        .set(failurePolicy, PolicyProperty.FAILURE_POLICY)
        .require(
            proofOfWork >= 0 && proofOfWork <= MAX_PROOF_OF_WORK,
            PolicyProperty.PROOF_OF_WORK,
            "must be between 0 and " + MAX_PROOF_OF_WORK)
        .positive(passRecheck, PolicyProperty.PASS_RECHECK)
        .part("fairness", fairness, problems -> fairness.check(problems))
        .part("budget", budget, problems -> budget.check(problems))
        .part("autopilot", autopilot, problems -> autopilot.check(problems))
        .part("reentry", reentry, problems -> reentry.check(problems))
        .require(
            recordArrivals >= 0 && recordArrivals <= 1,
            PolicyProperty.RECORD_ARRIVALS,
            "must be between 0 and 1")
        .orThrow("room policy");
  }

  private static boolean wholeSecondsUpToAMinute(Duration window) {
    return window != null
        && window.toMillis() % 1000 == 0
        && window.compareTo(Duration.ofSeconds(1)) >= 0
        && window.compareTo(MAX_ACTIVATION_WINDOW) <= 0;
  }

  /**
   * A policy with the given admission values and the default operation values; for callers that
   * only admit.
   */
  public RoomPolicy(
      double admitPerSecond,
      Duration admitBurst,
      int maxActive,
      Duration sessionDuration,
      Duration abandonAfter,
      int admitBatch,
      Duration finishedRetention) {
    this(
        admitPerSecond,
        admitBurst,
        maxActive,
        sessionDuration,
        abandonAfter,
        admitBatch,
        finishedRetention,
        DEFAULTS.mode,
        DEFAULTS.activateAbove,
        DEFAULTS.deactivateBelow,
        DEFAULTS.activationWindow,
        DEFAULTS.coolDown,
        DEFAULTS.closedLine,
        DEFAULTS.failurePolicy,
        DEFAULTS.proofOfWork,
        DEFAULTS.passRecheck,
        DEFAULTS.fairness,
        DEFAULTS.budget,
        DEFAULTS.autopilot,
        DEFAULTS.reentry,
        DEFAULTS.recordArrivals);
  }

  /**
   * How long a newcomer has to come back once (a status poll, or a request with the ticket) before
   * the place is given up: the waiting page asks within {@code WaitingView}'s first poll, so only
   * someone who never comes back (a one-shot request, a client that drops cookies, a tab closed at
   * once) loses it. Never longer than {@code abandon-after}.
   */
  public static final Duration FIRST_RETURN = Duration.ofMinutes(1);

  /** {@link #FIRST_RETURN}, or {@code abandon-after} when that is shorter. */
  public Duration firstReturnWithin() {
    return abandonAfter.compareTo(FIRST_RETURN) < 0 ? abandonAfter : FIRST_RETURN;
  }

  /** This policy with another {@code abandon-after}. */
  public RoomPolicy withAbandonAfter(Duration abandonAfter) {
    return with(admitPerSecond, abandonAfter, budget);
  }

  /**
   * This policy admitting at {@code share} of its rates (the queue's {@code admit-per-second} and
   * the room's {@code new-users-per-minute}), as the auto-pilot sets it: never below the
   * auto-pilot's floor, nor above the rates themselves. A share of 1 or more is this policy.
   */
  public RoomPolicy paced(double share) {
    if (!(share < 1)) {
      return this;
    }
    double rate = paced(admitPerSecond, share);
    Budget paced =
        budget.newUsersPerMinute() > 0
            ? new Budget(
                budget.totalActiveUsers(),
                paced(budget.newUsersPerSecond(), share) * 60,
                budget.weight(),
                budget.sessionScope())
            : budget;
    return with(rate, abandonAfter, paced);
  }

  /**
   * The rate per second the auto-pilot's share applies to, as operators read it: the room's {@code
   * new-users-per-minute} over 60 when set, its {@code admit-per-second} otherwise (each queue's).
   */
  public double pacedRate() {
    return budget.newUsersPerMinute() > 0 ? budget.newUsersPerSecond() : admitPerSecond;
  }

  /** This policy with another rate, abandon-after and budget; every other value the same. */
  private RoomPolicy with(double admitPerSecond, Duration abandonAfter, Budget budget) {
    return new RoomPolicy(
        admitPerSecond,
        admitBurst,
        maxActive,
        sessionDuration,
        abandonAfter,
        admitBatch,
        finishedRetention,
        mode,
        activateAbove,
        deactivateBelow,
        activationWindow,
        coolDown,
        closedLine,
        failurePolicy,
        proofOfWork,
        passRecheck,
        fairness,
        budget,
        autopilot,
        reentry,
        recordArrivals);
  }

  private double paced(double perSecond, double share) {
    return Math.max(perSecond * Math.max(0, share), Math.min(perSecond, autopilot.floor()));
  }

  /**
   * How often a pass holder's session is confirmed in Redis: {@code pass-recheck}, but at most a
   * tenth of the session duration, so that Redis learns of a visitor's activity soon enough to end
   * the session between one and 1.1 session durations after the last request; in whole
   * milliseconds, at least one.
   */
  public Duration sessionCheck() {
    // Whole milliseconds: Duration.dividedBy goes through BigDecimal, and this runs per request.
    long tenth = Math.max(1, sessionDuration.toMillis() / 10);
    return passRecheck.toMillis() < tenth ? passRecheck : Duration.ofMillis(tenth);
  }

  /**
   * How long a session lasts in Redis after its last confirmed activity: the session duration and
   * one {@link #sessionCheck()}, as activity is confirmed at most that often. A session therefore
   * ends between one and 1.1 session durations after the visitor's last request.
   */
  public Duration sessionIdleLimit() {
    return sessionDuration.plus(sessionCheck());
  }

  /** The longest a waiting page in a visible tab waits between polls, before its jitter. */
  public static final Duration FAR_BACK_POLL = Duration.ofSeconds(30);

  /**
   * The longest a waiting page in a visible tab waits between polls, before its ±20 % jitter:
   * {@link #FAR_BACK_POLL}, but at most a quarter of {@code abandon-after}, and at least a second.
   */
  public Duration pollCeiling() {
    long seconds = Math.max(1, Math.min(FAR_BACK_POLL.toSeconds(), abandonAfter.toSeconds() / 4));
    return Duration.ofSeconds(seconds);
  }

  /**
   * How long a line that the store lost admits only those who come back with their tickets, after
   * the store came back empty: one {@link #pollCeiling()} with its jitter, and a second, by when
   * every visible waiting page has asked again.
   */
  public Duration rejoinHold() {
    return pollCeiling().multipliedBy(6).dividedBy(5).plusSeconds(1);
  }

  /**
   * How long a ticket lives past its last use: {@code abandon-after} and {@code session-duration}.
   * By then its place is gone, given up by a visitor who stopped polling or ended with the session.
   */
  public Duration ticketLife() {
    return abandonAfter.plus(sessionDuration);
  }

  /**
   * Whether every visitor without a pass waits at {@code now}, whether or not the queue is on: in
   * {@code queue-all} and {@code paused}, and in {@code queue} while a scheduled event's pre-queue
   * is open.
   */
  public boolean holdsEveryone(Instant now) {
    return mode.holdsEveryone() || (mode == Mode.QUEUE && fairness.preQueue(now));
  }

  /**
   * How long the keys of a queue that is off are kept after they were last written: long enough for
   * its sessions to end and its finished entries to serve status, as if the queue were still on;
   * the longer of twice the session duration and the finished retention.
   */
  public Duration idleTimeToLive() {
    Duration sessions = sessionDuration.multipliedBy(2);
    return sessions.compareTo(finishedRetention) > 0 ? sessions : finishedRetention;
  }

  /** Whether the gateways record some of the room's arrivals. */
  public boolean recordsArrivals() {
    return recordArrivals > 0;
  }

  /** Whether traffic can turn this queue on. */
  public boolean activatesOnTraffic() {
    return activateAbove > 0;
  }

  /** Requests per second under which an empty, automatically activated queue counts as quiet. */
  public double quietBelow() {
    return deactivateBelow == HALF_OF_ACTIVATE_ABOVE ? activateAbove / 2 : deactivateBelow;
  }

  /** The activation window in whole seconds. */
  public int activationWindowSeconds() {
    return (int) activationWindow.toSeconds();
  }

  /** Token bucket size: the burst window's worth of the rate, at least one visitor. */
  public double burstTokens() {
    return Math.max(1, admitPerSecond * admitBurst.toMillis() / 1000.0);
  }
}
