package io.anteroom.queue.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Applies operator-written values (property name to text, as in YAML or the live-overrides hash) on
 * top of a base policy. Every problem is collected and reported at once, naming its property;
 * nothing half-applied ever escapes.
 */
public final class PolicyParser {

  /** Properties set on a room only: its limits, its auto-pilot and its recording of arrivals. */
  private static final List<PolicyProperty> ROOM_WIDE =
      List.of(
          PolicyProperty.TOTAL_ACTIVE_USERS,
          PolicyProperty.NEW_USERS_PER_MINUTE,
          PolicyProperty.SESSION_SCOPE,
          PolicyProperty.AUTOPILOT,
          PolicyProperty.AUTOPILOT_P95,
          PolicyProperty.AUTOPILOT_ERRORS,
          PolicyProperty.AUTOPILOT_FLOOR,
          PolicyProperty.RECORD_ARRIVALS);

  private PolicyParser() {}

  /**
   * @param source where the values come from, for messages ({@code anteroom.rooms.shop})
   * @param base the policy the values override
   * @param values property name to value; unknown names are errors
   * @throws InvalidPolicyException naming every bad property
   */
  public static RoomPolicy apply(String source, RoomPolicy base, Map<String, String> values) {
    List<String> problems = new ArrayList<>();
    Values v = new Values(source, values, problems);
    for (String key : values.keySet()) {
      if (PolicyProperty.byKey(key).isEmpty()) {
        problems.add(source + "." + key + ": unknown property");
      }
    }
    double rate = v.decimal(PolicyProperty.ADMIT_PER_SECOND).orElse(base.admitPerSecond());
    Duration burst = v.duration(PolicyProperty.ADMIT_BURST).orElse(base.admitBurst());
    int maxActive = v.whole(PolicyProperty.MAX_ACTIVE).orElse(base.maxActive());
    Duration session = v.duration(PolicyProperty.SESSION_DURATION).orElse(base.sessionDuration());
    Duration abandon = v.duration(PolicyProperty.ABANDON_AFTER).orElse(base.abandonAfter());
    int batch = v.whole(PolicyProperty.ADMIT_BATCH).orElse(base.admitBatch());
    Duration retention =
        v.duration(PolicyProperty.FINISHED_RETENTION).orElse(base.finishedRetention());
    Mode mode = v.choice(PolicyProperty.MODE, Mode.class).orElse(base.mode());
    double above = v.decimal(PolicyProperty.ACTIVATE_ABOVE).orElse(base.activateAbove());
    // Negative values are refused here: the record uses one as "half of activate-above".
    double below =
        v.decimal(PolicyProperty.DEACTIVATE_BELOW)
            .map(value -> value < 0 ? Double.NaN : value)
            .orElse(base.deactivateBelow());
    Duration window = v.duration(PolicyProperty.ACTIVATION_WINDOW).orElse(base.activationWindow());
    Duration coolDown = v.duration(PolicyProperty.COOL_DOWN).orElse(base.coolDown());
    ClosedLine closedLine =
        v.choice(PolicyProperty.CLOSED_LINE, ClosedLine.class).orElse(base.closedLine());
    FailurePolicy failure =
        v.choice(PolicyProperty.FAILURE_POLICY, FailurePolicy.class).orElse(base.failurePolicy());
    int proofOfWork = v.whole(PolicyProperty.PROOF_OF_WORK).orElse(base.proofOfWork());
    Duration recheck = v.duration(PolicyProperty.PASS_RECHECK).orElse(base.passRecheck());
    Fairness fairness = fairness(v, base.fairness());
    Budget budget = budget(v, base.budget());
    Autopilot autopilot = autopilot(v, base.autopilot());
    Reentry reentry =
        new Reentry(
            v.duration(PolicyProperty.REENTRY_GRACE).orElse(base.reentry().grace()),
            v.whole(PolicyProperty.REENTRY_MAX).orElse(base.reentry().max()));
    double recordArrivals = v.decimal(PolicyProperty.RECORD_ARRIVALS).orElse(base.recordArrivals());
    // Values that did not parse fall back to the base, so range checks still run on the rest.
    try {
      RoomPolicy policy =
          new RoomPolicy(
              rate,
              burst,
              maxActive,
              session,
              abandon,
              batch,
              retention,
              mode,
              above,
              below,
              window,
              coolDown,
              closedLine,
              failure,
              proofOfWork,
              recheck,
              fairness,
              budget,
              autopilot,
              reentry,
              recordArrivals);
      checkSubLimits(source, values, policy, problems);
      if (problems.isEmpty()) {
        return policy;
      }
    } catch (InvalidPolicyException e) {
      e.problems().forEach(problem -> problems.add(source + "." + problem));
    }
    throw new InvalidPolicyException(source, problems);
  }

  /**
   * The same values for one queue of a room: the room-wide limits cannot be set per queue, and a
   * queue's sessions may not outlast the room's ({@link #checkSessionWithinRoom}).
   *
   * @param base the room's policy
   * @throws InvalidPolicyException naming every bad property
   */
  public static RoomPolicy applyToQueue(
      String source, RoomPolicy base, Map<String, String> values) {
    List<String> problems = new ArrayList<>();
    Map<String, String> queueValues = new LinkedHashMap<>(values);
    for (PolicyProperty roomWide : ROOM_WIDE) {
      if (queueValues.remove(roomWide.key()) != null) {
        problems.add(source + "." + roomWide.key() + ": is room-wide; set it on the room");
      }
    }
    try {
      RoomPolicy policy = apply(source, base, queueValues);
      checkSessionWithinRoom(source, base, policy, problems);
      if (problems.isEmpty()) {
        return policy;
      }
    } catch (InvalidPolicyException e) {
      problems.addAll(e.problems());
    }
    throw new InvalidPolicyException(source, problems);
  }

  /**
   * A queue's session may end sooner than the room's, never later: the room counts a visitor as an
   * active user until its own idle limit after their last request ({@link
   * RoomPolicy#sessionIdleLimit()}), and an item's session outlasting it would let its holder in
   * uncounted, above total active users.
   */
  static void checkSessionWithinRoom(
      String source, RoomPolicy room, RoomPolicy queue, List<String> problems) {
    if (queue.sessionIdleLimit().compareTo(room.sessionIdleLimit()) > 0) {
      problems.add(
          source
              + "."
              + PolicyProperty.SESSION_DURATION.key()
              + ": a queue's session (with "
              + PolicyProperty.PASS_RECHECK.key()
              + ", "
              + Durations.format(queue.sessionIdleLimit())
              + ") may not outlast the room's ("
              + Durations.format(room.sessionIdleLimit())
              + "); set it on the room");
    }
  }

  private static Autopilot autopilot(Values v, Autopilot base) {
    boolean on =
        v.choice(PolicyProperty.AUTOPILOT, Autopilot.Switch.class)
            .map(choice -> choice == Autopilot.Switch.ON)
            .orElse(base.on());
    return new Autopilot(
        on,
        v.duration(PolicyProperty.AUTOPILOT_P95).orElse(base.targetP95()),
        v.decimal(PolicyProperty.AUTOPILOT_ERRORS).orElse(base.maxErrors()),
        v.decimal(PolicyProperty.AUTOPILOT_FLOOR).orElse(base.floor()));
  }

  private static Budget budget(Values v, Budget base) {
    int total =
        v.cleared(PolicyProperty.TOTAL_ACTIVE_USERS)
            ? 0
            : v.whole(PolicyProperty.TOTAL_ACTIVE_USERS)
                .map(value -> value < 1 ? -1 : value)
                .orElse(base.totalActiveUsers());
    double perMinute =
        v.cleared(PolicyProperty.NEW_USERS_PER_MINUTE)
            ? 0
            : v.decimal(PolicyProperty.NEW_USERS_PER_MINUTE)
                .map(value -> value > 0 ? value : Double.NaN)
                .orElse(base.newUsersPerMinute());
    double weight = v.decimal(PolicyProperty.WEIGHT).orElse(base.weight());
    SessionScope scope =
        v.choice(PolicyProperty.SESSION_SCOPE, SessionScope.class).orElse(base.sessionScope());
    return new Budget(total, perMinute, weight, scope);
  }

  /**
   * A queue cap written here must fit inside the room's: {@code max-active} within {@code
   * total-active-users}, {@code admit-per-second} within {@code new-users-per-minute}. A cap only
   * inherited (the built-in default, or YAML under a live room limit) is simply bounded by the
   * room's, as every queue is.
   */
  private static void checkSubLimits(
      String source, Map<String, String> values, RoomPolicy policy, List<String> problems) {
    Budget budget = policy.budget();
    if (budget.totalActiveUsers() > 0
        && policy.maxActive() > budget.totalActiveUsers()
        && values.containsKey(PolicyProperty.MAX_ACTIVE.key())) {
      problems.add(
          source
              + "."
              + PolicyProperty.MAX_ACTIVE.key()
              + ": must be at most "
              + PolicyProperty.TOTAL_ACTIVE_USERS.key()
              + " ("
              + budget.totalActiveUsers()
              + ")");
    }
    if (budget.newUsersPerMinute() > 0
        && policy.admitPerSecond() * 60 > budget.newUsersPerMinute()
        && values.containsKey(PolicyProperty.ADMIT_PER_SECOND.key())) {
      problems.add(
          source
              + "."
              + PolicyProperty.ADMIT_PER_SECOND.key()
              + ": must be at most "
              + PolicyProperty.NEW_USERS_PER_MINUTE.key()
              + " / 60 ("
              + budget.newUsersPerSecond()
              + ")");
    }
  }

  private static Fairness fairness(Values v, Fairness base) {
    Queueing queueing = v.choice(PolicyProperty.QUEUEING, Queueing.class).orElse(base.queueing());
    Instant start =
        v.cleared(PolicyProperty.EVENT_START)
            ? null
            : v.instant(PolicyProperty.EVENT_START).orElse(base.eventStart());
    Instant opensAt = base.preQueueOpensAt();
    Duration lead = base.preQueueLead();
    if (v.given(PolicyProperty.PRE_QUEUE_OPENS)) {
      // Written as an instant (it has a time part) or as a duration before the start.
      boolean instant = v.values().get(PolicyProperty.PRE_QUEUE_OPENS.key()).contains("T");
      opensAt = instant ? v.instant(PolicyProperty.PRE_QUEUE_OPENS).orElse(null) : null;
      lead =
          instant || v.cleared(PolicyProperty.PRE_QUEUE_OPENS)
              ? null
              : v.duration(PolicyProperty.PRE_QUEUE_OPENS).orElse(null);
    }
    int perIdentity =
        v.whole(PolicyProperty.MAX_QUEUES_PER_IDENTITY).orElse(base.maxQueuesPerIdentity());
    int perIp =
        v.whole(PolicyProperty.NEW_PLACES_PER_IP_PER_MINUTE).orElse(base.newPlacesPerIpPerMinute());
    return new Fairness(queueing, start, opensAt, lead, perIdentity, perIp);
  }

  private record Values(String source, Map<String, String> values, List<String> problems) {

    Optional<Double> decimal(PolicyProperty property) {
      return parse(property, "a number", Double::parseDouble);
    }

    Optional<Integer> whole(PolicyProperty property) {
      return parse(property, "a whole number", Integer::parseInt);
    }

    Optional<Duration> duration(PolicyProperty property) {
      return parse(property, null, Durations::parse);
    }

    Optional<Instant> instant(PolicyProperty property) {
      return cleared(property) ? Optional.empty() : parse(property, null, Instants::parse);
    }

    boolean given(PolicyProperty property) {
      return values.containsKey(property.key());
    }

    /** Whether the value is written as {@code none}: unset, over a value of the base. */
    boolean cleared(PolicyProperty property) {
      String text = values.get(property.key());
      return text != null && text.trim().equals("none");
    }

    <E extends Enum<E> & Choice> Optional<E> choice(PolicyProperty property, Class<E> type) {
      return parse(property, null, text -> Choice.parse(type, text));
    }

    private <T> Optional<T> parse(
        PolicyProperty property, String expected, Function<String, T> parser) {
      String text = values.get(property.key());
      if (text == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(parser.apply(text.trim()));
      } catch (IllegalArgumentException e) {
        String why =
            expected == null ? e.getMessage() : "must be " + expected + "; was '" + text + "'";
        problems.add(source + "." + property.key() + ": " + why);
        return Optional.empty();
      }
    }
  }
}
