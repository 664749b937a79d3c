package io.anteroom.gateway.admin;

import io.anteroom.queue.policy.Durations;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicy;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Policies and overrides as the admin API shows them: text values by property name. */
final class PolicyView {

  private PolicyView() {}

  /**
   * Every value of {@code policy}, in {@link PolicyProperty} order, written as operators write them
   * (so each reads back as the same value); {@code deactivate-below} shows the threshold in force.
   */
  static Map<String, String> of(RoomPolicy policy) {
    Map<String, String> values = new LinkedHashMap<>();
    for (PolicyProperty property : PolicyProperty.values()) {
      values.put(property.key(), value(policy, property));
    }
    return values;
  }

  /** Overrides sorted by property name, for stable output. */
  static Map<String, String> sorted(Map<String, String> overrides) {
    return new TreeMap<>(overrides);
  }

  static String value(RoomPolicy policy, PolicyProperty property) {
    return switch (property) {
      case ADMIT_PER_SECOND -> number(policy.admitPerSecond());
      case ADMIT_BURST -> Durations.format(policy.admitBurst());
      case MAX_ACTIVE -> Integer.toString(policy.maxActive());
      case SESSION_DURATION -> Durations.format(policy.sessionDuration());
      case ABANDON_AFTER -> Durations.format(policy.abandonAfter());
      case ADMIT_BATCH -> Integer.toString(policy.admitBatch());
      case FINISHED_RETENTION -> Durations.format(policy.finishedRetention());
      case MODE -> policy.mode().value();
      case ACTIVATE_ABOVE -> number(policy.activateAbove());
      case DEACTIVATE_BELOW -> number(policy.quietBelow());
      case ACTIVATION_WINDOW -> Durations.format(policy.activationWindow());
      case COOL_DOWN -> Durations.format(policy.coolDown());
      case CLOSED_LINE -> policy.closedLine().value();
      case FAILURE_POLICY -> policy.failurePolicy().value();
      case PROOF_OF_WORK -> Integer.toString(policy.proofOfWork());
      case PASS_RECHECK -> Durations.format(policy.passRecheck());
      case QUEUEING -> policy.fairness().queueing().value();
      case EVENT_START -> orNone(policy.fairness().eventStart());
      case PRE_QUEUE_OPENS ->
          policy.fairness().preQueueLead() != null
              ? Durations.format(policy.fairness().preQueueLead())
              : orNone(policy.fairness().preQueueOpensAt());
      case MAX_QUEUES_PER_IDENTITY -> Integer.toString(policy.fairness().maxQueuesPerIdentity());
      case NEW_PLACES_PER_IP_PER_MINUTE ->
          Integer.toString(policy.fairness().newPlacesPerIpPerMinute());
      case TOTAL_ACTIVE_USERS ->
          policy.budget().totalActiveUsers() > 0
              ? Integer.toString(policy.budget().totalActiveUsers())
              : "none";
      case NEW_USERS_PER_MINUTE ->
          policy.budget().newUsersPerMinute() > 0
              ? number(policy.budget().newUsersPerMinute())
              : "none";
      case WEIGHT -> number(policy.budget().weight());
      case SESSION_SCOPE -> policy.budget().sessionScope().value();
      case AUTOPILOT -> policy.autopilot().on() ? "on" : "off";
      case AUTOPILOT_P95 -> Durations.format(policy.autopilot().targetP95());
      case AUTOPILOT_ERRORS -> number(policy.autopilot().maxErrors());
      case AUTOPILOT_FLOOR -> number(policy.autopilot().floor());
      case REENTRY_GRACE -> Durations.format(policy.reentry().grace());
      case REENTRY_MAX -> Integer.toString(policy.reentry().max());
      case RECORD_ARRIVALS -> number(policy.recordArrivals());
    };
  }

  private static String orNone(Object value) {
    return value == null ? "none" : value.toString();
  }

  /** A decimal without a trailing {@code .0}: 10, 2.5. */
  static String number(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
