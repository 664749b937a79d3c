package io.anteroom.gateway.line;

import io.anteroom.queue.policy.RoomPolicy;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a waiting visitor should ask again. Near the front a few seconds, far back up to 30 s,
 * always well inside the abandon timeout, with ±20 % jitter so a crowd that arrived together does
 * not poll together. A page in a hidden tab may wait longer, up to {@link #ceilingSeconds}.
 */
public final class PollSchedule {

  static final long NEAR_FRONT_SECONDS = 2;

  /**
   * The latest a newcomer's page asks the first time: coming back once, well inside {@link
   * RoomPolicy#FIRST_RETURN}, keeps the place for the whole {@code abandon-after}.
   */
  public static final long FIRST_POLL_SECONDS = 10;

  private PollSchedule() {}

  /** Estimated seconds until admission at the room's rate; at least 1 while waiting. */
  public static long etaSeconds(long position, RoomPolicy policy) {
    return Math.max(1, (long) Math.ceil(position / policy.admitPerSecond()));
  }

  /** Seconds until the next poll for a visitor at {@code position}, from the configured rate. */
  public static long pollAfterSeconds(long position, RoomPolicy policy) {
    return pollAfterSeconds(position, WaitEstimate.NONE, policy);
  }

  /**
   * Seconds until the next poll for a visitor at {@code position}: from the short end of the
   * estimate when there is one, otherwise from the configured rate.
   */
  public static long pollAfterSeconds(long position, WaitEstimate estimate, RoomPolicy policy) {
    long eta = estimate.minSeconds() > 0 ? estimate.minSeconds() : etaSeconds(position, policy);
    // A tenth of the remaining wait, so the page checks about ten times before the turn comes.
    long base = Math.max(NEAR_FRONT_SECONDS, eta / 10);
    long ceiling = policy.pollCeiling().toSeconds();
    long interval = Math.min(base, ceiling);
    double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
    return Math.max(1, Math.round(interval * jitter));
  }

  /**
   * The longest a page may wait between polls, even in a hidden tab: a third of the abandon
   * timeout, so a visitor who keeps the page open never loses the place.
   */
  public static long ceilingSeconds(RoomPolicy policy) {
    return Math.max(1, policy.abandonAfter().toSeconds() / 3);
  }
}
