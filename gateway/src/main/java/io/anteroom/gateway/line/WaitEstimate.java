package io.anteroom.gateway.line;

import io.anteroom.queue.CapWait;
import io.anteroom.queue.policy.RoomPolicy;

/**
 * How long a waiting visitor may still wait, as a range. While a cap holds the place back ({@link
 * CapWait}: the queue's running sessions, or the room's active users), from when the running
 * session that frees a slot for it ends: never before that end, nor sooner than the configured rate
 * allows; at most two seconds per turn later (the worker ends the session and admits on its next
 * ticks), plus one admission interval for each end of the turn before it (ends that come together
 * are admitted one by one at the rate). Otherwise, or when the rate holds the place back longer
 * than the cap, from the queue's measured admission rate when there is one (±20 %), else from the
 * configured rate ({@link RoomShares}: in a room with a room-wide rate, the queue's share of it),
 * which is the fastest the line can move, so that range reaches twice as long. A room whose
 * new-users bucket is in debt admits nobody until it holds a token again: that time comes first, at
 * both ends.
 *
 * @param minSeconds the short end; at least 1 while waiting, 0 when there is no estimate
 * @param midSeconds the middle, for clients that show one number; 0 when there is no estimate
 * @param maxSeconds the long end; at least {@code midSeconds}
 */
public record WaitEstimate(long minSeconds, long midSeconds, long maxSeconds) {

  /** No estimate: paused, closed, before a scheduled start. */
  public static final WaitEstimate NONE = new WaitEstimate(0, 0, 0);

  static final double MEASURED_LOW = 0.8;
  static final double MEASURED_HIGH = 1.2;
  static final double CONFIGURED_LOW = 0.8;
  static final double CONFIGURED_HIGH = 2.0;

  /** Allowed per turn for the worker to end the session and admit on its next ticks. */
  static final double CAP_SLACK_SECONDS = 2;

  /**
   * @param position 1-based place in line
   * @param measuredRate admissions per second as measured lately; 0 when not known
   * @param configuredRate admissions per second the settings allow the queue
   * @param cap how long the cap on running sessions holds the place back
   */
  public static WaitEstimate of(
      long position, double measuredRate, double configuredRate, CapWait cap, RoomPolicy policy) {
    return later(
        byCapOrRate(position, measuredRate, configuredRate, cap, policy), cap.debtMillis());
  }

  /** {@code estimate} after a room's debt of {@code debtMillis} has been repaid. */
  private static WaitEstimate later(WaitEstimate estimate, long debtMillis) {
    if (debtMillis <= 0) {
      return estimate;
    }
    long debt = (debtMillis + 999) / 1000;
    return new WaitEstimate(
        estimate.minSeconds() + debt, estimate.midSeconds() + debt, estimate.maxSeconds() + debt);
  }

  private static WaitEstimate byCapOrRate(
      long position, double measuredRate, double configuredRate, CapWait cap, RoomPolicy policy) {
    WaitEstimate byRate = of(position, measuredRate, configuredRate);
    if (!cap.binds()) {
      return byRate;
    }
    double rate = configuredRate;
    double sessionEnds = cap.millisLeft() / 1000.0;
    double byCap =
        sessionEnds + CAP_SLACK_SECONDS * (cap.turns() + 1) + Math.max(0, cap.ends() - 1) / rate;
    double byConfiguredRate = position / rate * MEASURED_HIGH + CAP_SLACK_SECONDS;
    double low =
        Math.max(sessionEnds, Math.max(0, position - policy.burstTokens()) / rate * MEASURED_LOW);
    double high = Math.max(byCap, byConfiguredRate);
    long min = Math.max(1, (long) Math.floor(low));
    long max = Math.max(min, (long) Math.ceil(high));
    long mid = Math.min(max, Math.max(min, Math.round((low + high) / 2)));
    return new WaitEstimate(min, mid, max);
  }

  /**
   * @param position 1-based place in line
   * @param measuredRate admissions per second as measured lately; 0 when not known
   * @param configuredRate admissions per second the settings allow the queue
   */
  public static WaitEstimate of(long position, double measuredRate, double configuredRate) {
    boolean measured = measuredRate > 0;
    double base = position / (measured ? measuredRate : configuredRate);
    double low = base * (measured ? MEASURED_LOW : CONFIGURED_LOW);
    double high = base * (measured ? MEASURED_HIGH : CONFIGURED_HIGH);
    long min = Math.max(1, Math.round(low));
    long mid = Math.max(min, Math.round((low + high) / 2));
    return new WaitEstimate(min, mid, Math.max(mid, Math.round(high)));
  }

  /** One number as the whole range: {@code seconds} at each end. */
  public static WaitEstimate exactly(long seconds) {
    return new WaitEstimate(seconds, seconds, seconds);
  }
}
