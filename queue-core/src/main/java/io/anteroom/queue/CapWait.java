package io.anteroom.queue;

import io.anteroom.queue.policy.Budget;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.List;

/**
 * How long the caps hold a place in line back: the queue's {@code max-active} or, in a room with
 * room-wide limits, its {@code total-active-users}, whichever frees the place later (the session,
 * or the room's user, whose end frees a slot for it, read in the same call as the place:
 * cap_wait.lua); and how long the room's {@code new-users-per-minute} holds everyone back first,
 * its bucket being in debt. Sessions are assumed to idle out: one that stays active ends later, one
 * released ends sooner.
 *
 * @param millisLeft from the call until that session ends (its last activity plus the idle limit,
 *     and a whole idle limit for each turn); 0 when it is overdue, or when a slot is free for the
 *     place but not for everyone in line (the rate holds the place back, and the admissions
 *     measured lately are session ends); -1 when the whole line fits in the free slots
 * @param turns how many times the slot has to come round first: 0 when one of the sessions running
 *     now frees it
 * @param ends how many ends of that turn come first, this one included (the rate spaces out the
 *     admissions after ends that come close together)
 * @param debtMillis how long until the room's bucket holds a token again, when it limits new users
 *     per minute and is empty or in debt; 0 otherwise
 */
public record CapWait(long millisLeft, long turns, long ends, long debtMillis) {

  /** The whole line fits in the free slots: the caps hold nobody back. */
  public static final CapWait NONE = new CapWait(-1, 0, 0, 0);

  /** A wait for a cap with the room's bucket not in debt. */
  public CapWait(long millisLeft, long turns, long ends) {
    this(millisLeft, turns, ends, 0);
  }

  /** Whether a cap binds for the line: a running session has to end before someone's turn. */
  public boolean binds() {
    return millisLeft >= 0;
  }

  /**
   * From the script's reply: {@code activity} the last activity (ms) of the session whose end frees
   * the place, 0 for a slot free for it, or -1 when the cap holds nobody back.
   */
  static CapWait of(long activity, long turns, long ends, long now, RoomPolicy policy) {
    if (activity < 0) {
      return NONE;
    }
    if (activity == 0) {
      return new CapWait(0, 0, 0);
    }
    long endsAt = activity + policy.sessionIdleLimit().toMillis() * (turns + 1);
    return new CapWait(Math.max(0, endsAt - now), turns, ends);
  }

  /**
   * From a script's reply from index {@code at}: the queue's cap (three numbers), then the room's
   * (three, cap_wait.lua room_wait) and its bucket's tokens in thousandths and refill time.
   */
  static CapWait of(List<Long> reply, int at, long now, RoomPolicy policy) {
    CapWait queue = of(reply.get(at), reply.get(at + 1), reply.get(at + 2), now, policy);
    CapWait room = of(reply.get(at + 3), reply.get(at + 4), reply.get(at + 5), now, policy);
    CapWait later = room.millisLeft() > queue.millisLeft() ? room : queue;
    long debt = debtMillis(reply.get(at + 6), reply.get(at + 7), now, policy.budget());
    return new CapWait(later.millisLeft(), later.turns(), later.ends(), debt);
  }

  /**
   * How long until the room's bucket, read with {@code milliTokens} at {@code refill}, holds a
   * token as of {@code now}: refilled at the room's rate since, never past its burst.
   */
  private static long debtMillis(long milliTokens, long refill, long now, Budget budget) {
    double rate = budget.newUsersPerSecond();
    if (refill <= 0 || rate <= 0) {
      return 0;
    }
    double tokens =
        Math.min(
            budget.burstTokens(), milliTokens / 1000.0 + Math.max(0, now - refill) * rate / 1000);
    return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / rate * 1000);
  }
}
