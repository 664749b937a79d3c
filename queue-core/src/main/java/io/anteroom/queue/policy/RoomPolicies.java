package io.anteroom.queue.policy;

import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Each configured room's settings: the YAML policy with the room's live overrides on top, and each
 * overridden queue's on top of that. An override that cannot be used (written to Redis by hand, by
 * an older version, or no longer valid over a changed YAML value) is skipped with a warning while
 * the others still apply, so a bad value can never stop admissions or undo a mode.
 */
public final class RoomPolicies {

  private final Map<String, RoomPolicy> configured;
  private final SettingsStore settings;
  private final ThrottledWarnings warnings;

  /**
   * @param configured each room's policy as configured in YAML
   * @param settings where live overrides are read from
   * @param clock the time warnings about unusable overrides are rate-limited by
   */
  public RoomPolicies(Map<String, RoomPolicy> configured, SettingsStore settings, Clock clock) {
    this.configured = Map.copyOf(configured);
    this.settings = settings;
    this.warnings =
        new ThrottledWarnings(
            LoggerFactory.getLogger(RoomPolicies.class), clock, Duration.ofMinutes(1));
  }

  /** The configured rooms. */
  public Set<String> rooms() {
    return configured.keySet();
  }

  /** The policy from YAML alone, or null for an unknown room. */
  public RoomPolicy configured(String room) {
    return configured.get(room);
  }

  /** The room's live overrides as stored, or empty for a room that is not configured. */
  public Mono<Overrides> overrides(String room) {
    return configured.containsKey(room) ? settings.overrides(room) : Mono.empty();
  }

  /** The room's current settings, or empty for a room that is not configured. */
  public Mono<RoomSettings> current(String room) {
    RoomPolicy base = configured.get(room);
    if (base == null) {
      return Mono.empty();
    }
    return settings.overrides(room).map(overrides -> apply(room, base, overrides));
  }

  /** {@code overrides} applied to the room's YAML policy, skipping parts that do not parse. */
  public RoomSettings apply(String room, RoomPolicy base, Overrides overrides) {
    RoomPolicy policy = withOverrides("room " + room, base, overrides.room(), false);
    Map<String, RoomPolicy> queues = new HashMap<>();
    overrides
        .queues()
        .forEach(
            (item, values) ->
                queues.put(
                    item, withOverrides("queue " + room + ":" + item, policy, values, true)));
    return new RoomSettings(policy, queues);
  }

  private RoomPolicy withOverrides(
      String source, RoomPolicy base, Map<String, String> values, boolean queue) {
    if (values.isEmpty()) {
      return base;
    }
    try {
      return parse("overrides of " + source, base, values, queue);
    } catch (InvalidPolicyException e) {
      return oneByOne(source, base, values, queue);
    }
  }

  private static RoomPolicy parse(
      String source, RoomPolicy base, Map<String, String> values, boolean queue) {
    return queue
        ? PolicyParser.applyToQueue(source, base, values)
        : PolicyParser.apply(source, base, values);
  }

  /** Applies the overrides that can be used, one at a time in name order, skipping the others. */
  private RoomPolicy oneByOne(
      String source, RoomPolicy base, Map<String, String> values, boolean queue) {
    RoomPolicy policy = base;
    for (Map.Entry<String, String> value : new TreeMap<>(values).entrySet()) {
      try {
        policy =
            parse(
                "overrides of " + source, policy, Map.of(value.getKey(), value.getValue()), queue);
      } catch (InvalidPolicyException e) {
        warnings.warn(source + value.getKey(), "Ignoring live override: {}", e.getMessage());
      }
    }
    return policy;
  }
}
