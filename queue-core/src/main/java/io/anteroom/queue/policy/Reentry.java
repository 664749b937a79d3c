package io.anteroom.queue.policy;

import java.time.Duration;
import java.util.List;

/**
 * Visitors the origin failed right after their admission go back to the front of the line instead
 * of losing their turn. Part of {@link RoomPolicy}, parsed and checked with it.
 *
 * @param grace {@code reentry-grace}: how long after admission an origin's 502, 503 or 504, a
 *     refused connection or a timeout sends the visitor back to the front; default 30s
 * @param max {@code reentry-max}: how many times one visitor may go back to the front of one queue,
 *     0 to 100, 0 turning re-entry off; default 2
 */
public record Reentry(Duration grace, int max) {

  /** 30 seconds, twice. */
  public static final Reentry DEFAULTS = new Reentry(Duration.ofSeconds(30), 2);

  static final int MAX_TIMES = 100;

  /** Whether failed visitors may go back to the front at all. */
  public boolean on() {
    return max > 0;
  }

  /** Adds a message per problem, each starting with the property name. */
  void check(List<String> problems) {
    if (grace == null || grace.isNegative() || grace.isZero()) {
      problems.add(PolicyProperty.REENTRY_GRACE.key() + ": must be a positive duration");
    }
    if (max < 0 || max > MAX_TIMES) {
      problems.add(PolicyProperty.REENTRY_MAX.key() + ": must be between 0 and " + MAX_TIMES);
    }
  }
}
