package io.anteroom.queue.policy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Each configured room's settings: the YAML policy with the room's live overrides on top, and each
 * overridden queue's on top of that. Overrides that do not parse (written to Redis by hand, or by
 * an older version) are ignored with a warning, so a bad value can never stop admissions.
 */
public final class RoomPolicies {

  private static final Logger log = LoggerFactory.getLogger(RoomPolicies.class);

  private final Map<String, RoomPolicy> configured;
  private final SettingsStore settings;

  /**
   * @param configured each room's policy as configured in YAML
   * @param settings where live overrides are read from
   */
  public RoomPolicies(Map<String, RoomPolicy> configured, SettingsStore settings) {
    this.configured = Map.copyOf(configured);
    this.settings = settings;
  }

  /** The configured rooms. */
  public Set<String> rooms() {
    return configured.keySet();
  }

  /** The policy from YAML alone, or null for an unknown room. */
  public RoomPolicy configured(String room) {
    return configured.get(room);
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
  public static RoomSettings apply(String room, RoomPolicy base, Overrides overrides) {
    RoomPolicy policy = withOverrides("room " + room, base, overrides.room());
    Map<String, RoomPolicy> queues = new HashMap<>();
    overrides
        .queues()
        .forEach(
            (item, values) ->
                queues.put(item, withOverrides("queue " + room + ":" + item, policy, values)));
    return new RoomSettings(policy, queues);
  }

  private static RoomPolicy withOverrides(
      String source, RoomPolicy base, Map<String, String> values) {
    if (values.isEmpty()) {
      return base;
    }
    try {
      return PolicyParser.apply("overrides of " + source, base, values);
    } catch (InvalidPolicyException e) {
      log.warn("Ignoring live overrides of {}: {}", source, e.getMessage());
      return base;
    }
  }
}
