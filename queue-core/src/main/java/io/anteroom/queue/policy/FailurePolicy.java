package io.anteroom.queue.policy;

/** What visitors without a pass get when the line cannot be reached (Redis down or slow). */
public enum FailurePolicy implements Choice {
  /** They are let through to the origin, marked in a header and a metric. */
  OPEN,
  /** They get a 503 with Retry-After; the origin is not touched. */
  CLOSED
}
