package io.anteroom.queue.config;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code anteroom.*} settings both apps read from {@code config/}. Every room's policy is
 * parsed here, so a bad value stops start-up with a message naming the property.
 *
 * @param keyPrefix prefix of every Redis key; default {@code wr}
 * @param redis how to reach Redis
 * @param defaults policy values every room starts from, over the built-in {@link
 *     RoomPolicy#DEFAULTS}; default none
 * @param rooms the rooms by name, each a map of policy values and {@link RoomOptions}; default none
 */
@ConfigurationProperties("anteroom")
public record AnteroomProperties(
    @DefaultValue("wr") String keyPrefix,
    @DefaultValue RedisProperties redis,
    Map<String, String> defaults,
    Map<String, Map<String, String>> rooms) {

  public AnteroomProperties {
    if (!QueueKeys.isPrefix(keyPrefix)) {
      throw new IllegalArgumentException(
          "anteroom.key-prefix: must be 1 to 32 letters, digits, '-' or '_', was '"
              + keyPrefix
              + "'");
    }
    defaults = defaults == null ? Map.of() : Map.copyOf(defaults);
    rooms = rooms == null ? Map.of() : Map.copyOf(rooms);
    policies(defaults, rooms);
  }

  /** Each room's {@link RoomOptions}, read from its settings. */
  public Map<String, RoomOptions> roomOptions() {
    Map<String, RoomOptions> options = new LinkedHashMap<>();
    rooms.forEach((room, settings) -> options.put(room, RoomOptions.of(settings)));
    return Map.copyOf(options);
  }

  /** Each room's policy from YAML: built-in defaults, then {@code defaults}, then the room. */
  public Map<String, RoomPolicy> policies() {
    return policies(defaults, rooms);
  }

  private static Map<String, RoomPolicy> policies(
      Map<String, String> defaults, Map<String, Map<String, String>> rooms) {
    List<String> problems = new ArrayList<>();
    RoomPolicy base = RoomPolicy.DEFAULTS;
    try {
      base = PolicyParser.apply("anteroom.defaults", RoomPolicy.DEFAULTS, defaults);
    } catch (InvalidPolicyException e) {
      problems.addAll(e.problems());
    }
    Map<String, RoomPolicy> policies = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, String>> room : rooms.entrySet()) {
      String source = "anteroom.rooms." + room.getKey();
      try {
        QueueId.requireRoom(room.getKey());
        Map<String, String> values = new LinkedHashMap<>(room.getValue());
        values.keySet().removeIf(RoomOptions::isOption);
        policies.put(room.getKey(), PolicyParser.apply(source, base, values));
      } catch (InvalidPolicyException e) {
        problems.addAll(e.problems());
      } catch (IllegalArgumentException e) {
        problems.add(source + ": " + e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidPolicyException("anteroom configuration", problems);
    }
    return policies;
  }
}
