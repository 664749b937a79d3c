package io.anteroom.gateway.status;

import io.anteroom.queue.policy.RoomPolicy;

/**
 * How long a waiting visitor may still wait, as a range. From the queue's measured admission rate
 * when there is one (±20 %); otherwise from the configured rate, which is the fastest the line can
 * move: the cap on active sessions can only slow it, so that range reaches twice as long.
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

  /**
   * @param position 1-based place in line
   * @param measuredRate admissions per second as measured lately; 0 when not known
   */
  public static WaitEstimate of(long position, double measuredRate, RoomPolicy policy) {
    boolean measured = measuredRate > 0;
    double base = position / (measured ? measuredRate : policy.admitPerSecond());
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
