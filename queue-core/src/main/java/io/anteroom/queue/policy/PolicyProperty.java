package io.anteroom.queue.policy;

import java.util.Arrays;
import java.util.Optional;

/** The names operators use for {@link RoomPolicy} values, in YAML and in live overrides. */
public enum PolicyProperty {
  ADMIT_PER_SECOND("admit-per-second"),
  ADMIT_BURST("admit-burst"),
  MAX_ACTIVE("max-active"),
  SESSION_DURATION("session-duration"),
  ABANDON_AFTER("abandon-after"),
  ADMIT_BATCH("admit-batch"),
  FINISHED_RETENTION("finished-retention"),
  MODE("mode"),
  ACTIVATE_ABOVE("activate-above"),
  DEACTIVATE_BELOW("deactivate-below"),
  ACTIVATION_WINDOW("activation-window"),
  COOL_DOWN("cool-down"),
  CLOSED_LINE("closed-line"),
  FAILURE_POLICY("failure-policy"),
  PROOF_OF_WORK("proof-of-work"),
  PASS_RECHECK("pass-recheck"),
  QUEUEING("queueing"),
  EVENT_START("event-start"),
  PRE_QUEUE_OPENS("pre-queue-opens"),
  MAX_QUEUES_PER_IDENTITY("max-queues-per-identity"),
  NEW_PLACES_PER_IP_PER_MINUTE("new-places-per-ip-per-minute"),
  TOTAL_ACTIVE_USERS("total-active-users"),
  NEW_USERS_PER_MINUTE("new-users-per-minute"),
  WEIGHT("weight"),
  SESSION_SCOPE("session-scope"),
  AUTOPILOT("autopilot"),
  AUTOPILOT_P95("autopilot-p95"),
  AUTOPILOT_ERRORS("autopilot-errors"),
  AUTOPILOT_FLOOR("autopilot-floor"),
  REENTRY_GRACE("reentry-grace"),
  REENTRY_MAX("reentry-max"),
  RECORD_ARRIVALS("record-arrivals");

  private final String key;

  PolicyProperty(String key) {
    this.key = key;
  }

  /** The kebab-case property name. */
  public String key() {
    return key;
  }

  /** The property named {@code key}, if there is one. */
  public static Optional<PolicyProperty> byKey(String key) {
    return Arrays.stream(values()).filter(p -> p.key.equals(key)).findFirst();
  }
}
