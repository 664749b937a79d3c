package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;

/**
 * How long the cap on running sessions ({@code max-active}) holds a place in line back: the running
 * session whose end frees a slot for it, read in the same call as the place (cap_wait.lua).
 * Sessions are assumed to idle out: one that stays active ends later, one released ends sooner.
 *
 * @param millisLeft from the call until that session ends (its last activity plus the idle limit,
 *     and a whole idle limit for each turn); 0 when it is overdue, or when a slot is free for the
 *     place but not for everyone in line (the rate holds the place back, and the admissions
 *     measured lately are session ends); -1 when the whole line fits in the free slots
 * @param turns how many times the slot has to come round first: 0 when one of the sessions running
 *     now frees it
 * @param ends how many ends of that turn come first, this one included (the rate spaces out the
 *     admissions after ends that come close together)
 */
public record CapWait(long millisLeft, long turns, long ends) {

  /** The whole line fits in the free slots: the cap holds nobody back. */
  public static final CapWait NONE = new CapWait(-1, 0, 0);

  /** Whether the cap binds for the line: a running session has to end before someone's turn. */
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
}
