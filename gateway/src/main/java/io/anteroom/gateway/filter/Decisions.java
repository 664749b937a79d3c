package io.anteroom.gateway.filter;

import io.anteroom.gateway.line.TokenRejections;
import io.anteroom.gateway.token.Rejection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Counts what the filter decided ({@code anteroom.gateway.requests}) and why tokens were turned
 * away ({@code anteroom.gateway.tokens.rejected}), tagged by room and outcome only (never by a
 * request value), so the number of series stays bounded however many items requests name. Every
 * counter of every configured room is made at start-up: rates start at zero, and counting a request
 * is an array lookup, not a registry lookup.
 */
public final class Decisions implements TokenRejections {

  /** Outcomes of one request. */
  public enum Decision {
    /** A valid pass, or a queue that lets everyone in. */
    PASSED,
    /** Held in line: the waiting page or its JSON. */
    QUEUED,
    /**
     * Turned away without a place: a write (not GET or HEAD) to an active queue, 503; or over a
     * limit on new places, 429.
     */
    REJECTED,
    /** A static asset, never queued. */
    BYPASSED,
    /** Let through without a pass because the line could not be reached (failure policy open). */
    FAILED_OPEN,
    /** Answered 503 because the line could not be reached (failure policy closed). */
    FAILED_CLOSED,
    /** The queue is closed. */
    CLOSED,
    /** Asked to solve the room's proof-of-work puzzle before taking a place. */
    CHALLENGED,
    /** An item id that is no spelling the room accepts: 404 or 400, never forwarded. */
    INVALID_ITEM;

    final String tag = name().toLowerCase(Locale.ROOT);
  }

  private record RoomCounters(
      EnumMap<Decision, Counter> decisions, EnumMap<Rejection, Counter> rejections) {}

  private final Map<String, RoomCounters> rooms;
  private final MeterRegistry meters;

  public Decisions(Set<String> rooms, MeterRegistry meters) {
    this.meters = meters;
    this.rooms =
        rooms.stream().collect(Collectors.toUnmodifiableMap(Function.identity(), this::countersOf));
  }

  private RoomCounters countersOf(String room) {
    EnumMap<Decision, Counter> decisions = new EnumMap<>(Decision.class);
    for (Decision decision : Decision.values()) {
      decisions.put(decision, requests(room, decision.tag));
    }
    EnumMap<Rejection, Counter> rejections = new EnumMap<>(Rejection.class);
    for (Rejection reason : Rejection.values()) {
      rejections.put(reason, rejected(room, reason.tag()));
    }
    return new RoomCounters(decisions, rejections);
  }

  public void count(String room, Decision decision) {
    RoomCounters counters = rooms.get(room);
    (counters != null ? counters.decisions().get(decision) : requests(room, decision.tag))
        .increment();
  }

  /** A token that could not be used, by its reason. */
  @Override
  public void rejected(String room, Rejection reason) {
    RoomCounters counters = rooms.get(room);
    (counters != null ? counters.rejections().get(reason) : rejected(room, reason.tag()))
        .increment();
  }

  private Counter requests(String room, String decision) {
    return meters.counter("anteroom.gateway.requests", "room", room, "decision", decision);
  }

  private Counter rejected(String room, String reason) {
    return meters.counter("anteroom.gateway.tokens.rejected", "room", room, "reason", reason);
  }
}
