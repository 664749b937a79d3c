package io.anteroom.gateway.filter;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts what the filter decided, tagged by room and outcome only (never by a request value), so
 * the number of series stays bounded however many items requests name.
 */
public final class Decisions {

  /** Outcomes of one request. */
  public enum Decision {
    PASSED,
    QUEUED,
    BYPASSED,
    REJECTED,
    UNAVAILABLE,
    /** Let through without a pass because the line could not be reached (failure policy open). */
    FAILED_OPEN,
    CLOSED
  }

  private final MeterRegistry meters;

  public Decisions(MeterRegistry meters) {
    this.meters = meters;
  }

  public void count(String room, Decision decision) {
    meters
        .counter(
            "anteroom.gateway.requests", "room", room, "decision", decision.name().toLowerCase())
        .increment();
  }

  /** A token that could not be used, by the reason tag. */
  public void rejectedToken(String room, String reason) {
    meters.counter("anteroom.gateway.tokens.rejected", "room", room, "reason", reason).increment();
  }
}
