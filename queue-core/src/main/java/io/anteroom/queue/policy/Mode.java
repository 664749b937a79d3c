package io.anteroom.queue.policy;

/** How a room or queue treats visitors without a pass. */
public enum Mode implements Choice {
  /** Visitors wait while the queue is on (turned on by an operator or by traffic). */
  QUEUE,
  /** Every visitor without a pass waits, whether or not the queue was turned on. */
  QUEUE_ALL,
  /** Every visitor without a pass waits and nobody is admitted; the line is kept. */
  PAUSED,
  /** Nobody waits: the queue is off whatever turned it on. */
  PASSTHROUGH,
  /**
   * Nobody waits, as in {@link #PASSTHROUGH}; while the queue is on, the newcomers who would have
   * waited join a virtual line of their own ({@code QueueKeys#shadow()}) that the worker admits
   * from at the queue's settings, to show what the real line would look like.
   */
  SHADOW,
  /** Nobody enters: visitors without a pass get the closed page. */
  CLOSED;

  /** Whether visitors without a pass wait even when the queue is not turned on. */
  public boolean holdsEveryone() {
    return this == QUEUE_ALL || this == PAUSED;
  }

  /** Whether visitors may be admitted in this mode. */
  public boolean admits() {
    return this != PAUSED && this != CLOSED;
  }
}
