package io.anteroom.queue.origin;

/**
 * Where a room's auto-pilot stands: the share of the configured rates it admits at, when and why it
 * last decided, and what its next decisions need to remember.
 *
 * @param share from above 0 to 1
 * @param at when it last decided (epoch ms), 0 for never
 * @param reason its last decision in words, as the admin page shows it
 * @param peak the share at which the origin last struggled, 0 for none; recovery slows near it
 * @param holdUntil until when (epoch ms) a slow-down waits to show in the figures before the next
 * @param seen when it last had figures to decide on (epoch ms), 0 for never
 * @param high the highest share since the last slow-down: what the origin's figures may still show,
 *     as admitted visitors come in over a few seconds
 */
public record PilotState(
    double share, long at, String reason, double peak, long holdUntil, long seen, double high) {

  /** Never decided: the configured rates. */
  public static final PilotState START = new PilotState(1, 0, "at the configured rate", 0, 0, 0, 1);

  /**
   * This state as decided at {@code at}: keeping what it remembers, with a new share and reason.
   */
  public PilotState next(long at, double share, String reason) {
    return new PilotState(share, at, reason, peak, holdUntil, seen, Math.max(high, share));
  }
}
