package io.anteroom.queue.policy;

import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Each configured room's policy: the YAML policy with the live overrides applied on top. Overrides
 * that do not parse (written to Redis by hand, or by an older version) are ignored with a warning,
 * so a bad value can never stop admissions.
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

  /** The policy from YAML alone, or empty for an unknown room. */
  public Mono<RoomPolicy> configured(String room) {
    return Mono.justOrEmpty(configured.get(room));
  }

  /** The room's current policy, or empty for a room that is not configured. */
  public Mono<RoomPolicy> current(String room) {
    RoomPolicy base = configured.get(room);
    if (base == null) {
      return Mono.empty();
    }
    return settings.overrides(room).map(values -> withOverrides(room, base, values));
  }

  private static RoomPolicy withOverrides(
      String room, RoomPolicy base, Map<String, String> values) {
    if (values.isEmpty()) {
      return base;
    }
    try {
      return PolicyParser.apply("overrides of room " + room, base, values);
    } catch (InvalidPolicyException e) {
      log.warn("room={} ignoring live overrides: {}", room, e.getMessage());
      return base;
    }
  }
}
