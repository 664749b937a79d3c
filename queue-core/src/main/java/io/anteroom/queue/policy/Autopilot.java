package io.anteroom.queue.policy;

import java.time.Duration;
import java.util.List;

/**
 * Whether the origin's health sets a room's pace, and its bounds. With the auto-pilot on, the
 * workers admit at a share of the configured rates (the ceiling) that follows the origin's answers
 * to pass holders, never below the floor. Part of {@link RoomPolicy}, parsed and checked with it;
 * set per room.
 *
 * @param on {@code autopilot}: {@code on} or {@code off}; default off
 * @param targetP95 {@code autopilot-p95}: the origin's 95th percentile answer time above which
 *     admission slows down; default 800ms
 * @param maxErrors {@code autopilot-errors}: the largest tolerated share of 5xx answers, connection
 *     failures and timeouts, from 0 to 1; default 0.05
 * @param floor {@code autopilot-floor}: the least admissions per second the auto-pilot keeps, per
 *     queue, or for the room when it has {@code new-users-per-minute} (never above the configured
 *     rate); default 1
 */
public record Autopilot(boolean on, Duration targetP95, double maxErrors, double floor) {

  /** Off, with a target of 800 ms, 5 % errors and a floor of one admission a second. */
  public static final Autopilot DEFAULTS = new Autopilot(false, Duration.ofMillis(800), 0.05, 1);

  /** The words for {@link #on}. */
  public enum Switch implements Choice {
    ON,
    OFF
  }

  /** The least share of a rate of {@code ceiling} per second the floor keeps, at most 1. */
  public double floorShare(double ceiling) {
    return ceiling <= 0 ? 1 : Math.min(1, floor / ceiling);
  }

  /** Adds a message per problem, each starting with the property name. */
  void check(List<String> problems) {
    if (targetP95 == null || targetP95.isNegative() || targetP95.isZero()) {
      problems.add(PolicyProperty.AUTOPILOT_P95.key() + ": must be a positive duration");
    }
    if (!(maxErrors >= 0 && maxErrors <= 1)) {
      problems.add(PolicyProperty.AUTOPILOT_ERRORS.key() + ": must be between 0 and 1");
    }
    if (!(floor > 0 && floor <= 1_000_000)) {
      problems.add(PolicyProperty.AUTOPILOT_FLOOR.key() + ": must be above 0 and at most 1000000");
    }
  }
}
