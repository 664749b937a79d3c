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
