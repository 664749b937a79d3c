package io.anteroom.queue.policy;

/** The order in which people leave a room's line. */
public enum Queueing implements Choice {
  /** First come, first served: each newcomer goes to the back of the line. */
  FIFO,
  /**
   * A lottery: each newcomer gets a random place among those waiting, so the order of admission is
   * a uniform shuffle of the people present and arriving first brings no advantage.
   */
  RANDOM
}
