package io.anteroom.queue.policy;

import java.util.List;

/**
 * A room's limits across all of its queues, the way an origin's capacity is counted: how many
 * people may be on its pages at once and how many may come in per minute, each visitor counted once
 * however many of its items they open; what keeps a visitor's admissions alive; and a queue's
 * weight in sharing the room. Part of {@link RoomPolicy}, parsed and checked with it. A queue's own
 * {@code max-active} and {@code admit-per-second} stay as caps inside the room's budget, counting
 * that item's admissions.
 *
 * @param totalActiveUsers {@code total-active-users}: most visitors active on the room's items at
 *     once, counting those given a pass while an item's queue is off; 0 (written {@code none}) for
 *     no room-wide cap; default none
 * @param newUsersPerMinute {@code new-users-per-minute}: most visitors the room lets in per minute
 *     who were not active in it, over all of its items; 0 (written {@code none}) for no room-wide
 *     rate; default none
 * @param weight {@code weight}: a queue's share of the room's admissions relative to the other
 *     queues with people waiting, above 0; set per queue; default 1
 * @param sessionScope {@code session-scope}: what keeps an admission alive, a request to its item
 *     ({@code item}) or to any item of the room ({@code room}); set per room; default item
 */
public record Budget(
    int totalActiveUsers, double newUsersPerMinute, double weight, SessionScope sessionScope) {

  /** No room-wide limits; equal weights; admissions kept by their own item. */
  public static final Budget DEFAULTS = new Budget(0, 0, 1, SessionScope.ITEM);

  /** A budget whose admissions are kept by their own item. */
  public Budget(int totalActiveUsers, double newUsersPerMinute, double weight) {
    this(totalActiveUsers, newUsersPerMinute, weight, SessionScope.ITEM);
  }

  static final int MAX_TOTAL_ACTIVE_USERS = 100_000_000;
  static final double MAX_NEW_USERS_PER_MINUTE = 60_000_000;
  static final double MAX_WEIGHT = 1000;

  /** Whether the room has a room-wide limit, so its queues are admitted together. */
  public boolean limited() {
    return totalActiveUsers > 0 || newUsersPerMinute > 0;
  }

  /** The room's rate in new users per second, 0 when not limited. */
  public double newUsersPerSecond() {
    return newUsersPerMinute / 60;
  }

  /** The room's token bucket size: a second's worth of the rate, at least one visitor. */
  public double burstTokens() {
    return Math.max(1, newUsersPerSecond());
  }

  /** Adds a message per problem, each starting with the property name. */
  void check(List<String> problems) {
    if (totalActiveUsers < 0 || totalActiveUsers > MAX_TOTAL_ACTIVE_USERS) {
      problems.add(
          PolicyProperty.TOTAL_ACTIVE_USERS.key()
              + ": must be between 1 and "
              + MAX_TOTAL_ACTIVE_USERS
              + ", or none");
    }
    if (!(newUsersPerMinute >= 0 && newUsersPerMinute <= MAX_NEW_USERS_PER_MINUTE)) {
      problems.add(
          PolicyProperty.NEW_USERS_PER_MINUTE.key()
              + ": must be above 0 and at most "
              + (long) MAX_NEW_USERS_PER_MINUTE
              + ", or none");
    }
    if (sessionScope == null) {
      problems.add(PolicyProperty.SESSION_SCOPE.key() + ": must be set");
    }
    if (!(weight > 0 && weight <= MAX_WEIGHT)) {
      problems.add(
          PolicyProperty.WEIGHT.key() + ": must be above 0 and at most " + (long) MAX_WEIGHT);
    }
  }
}
