package io.anteroom.queue.config;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * @param rooms the rooms by name, each a map of policy values and {@link #ROOM_OPTIONS}; default
 *     none
 */
@ConfigurationProperties("anteroom")
public record AnteroomProperties(
    @DefaultValue("wr") String keyPrefix,
    @DefaultValue RedisProperties redis,
    Map<String, String> defaults,
    Map<String, Map<String, String>> rooms) {

  /**
   * Room settings that are not policy and cannot be changed live: {@code item}, where a request's
   * item id comes from ({@code path:<variable>}, {@code query:<name>}, {@code header:<name>} or
   * {@code room} for one line per room; default {@code room}); what its ids look like, read by the
   * gateway: {@code item-pattern} (a regular expression; default {@code [A-Za-z0-9_-]{1,64}}),
   * {@code item-case} ({@code sensitive} or {@code insensitive}; default {@code sensitive}), {@code
   * item-format} ({@code text} or {@code integer}; default {@code text}) and {@code item-refusal}
   * ({@code 404} or {@code 400}; default {@code 404}); {@code identity}, where a visitor's identity
   * comes from ({@code header:<name>} or {@code cookie:<name>}; default none: each browser is a
   * visitor); and the gateway's bypass rules {@code bypass-paths}, {@code bypass-extensions},
   * {@code bypass-networks} and {@code bypass-secret} (lists are comma-separated or YAML lists;
   * default none); {@code language}, the one language of the room's visitor pages ({@code en} or
   * {@code ko}; default: the visitor's {@code Accept-Language}); {@code template}, the path of the
   * room's own waiting page template (default the built-in one).
   */
  public static final Set<String> ROOM_OPTIONS =
      Set.of(
          "item",
          "item-pattern",
          "item-case",
          "item-format",
          "item-refusal",
          "identity",
          "bypass-paths",
          "bypass-extensions",
          "bypass-networks",
          "bypass-secret",
          "language",
          "template");

  public AnteroomProperties {
    defaults = defaults == null ? Map.of() : Map.copyOf(defaults);
    rooms = rooms == null ? Map.of() : Map.copyOf(rooms);
    new QueueKeys(keyPrefix);
    policies(defaults, rooms);
  }

  /** A room's {@link #ROOM_OPTIONS} value, or {@code fallback} when it is not set. */
  public String roomOption(String room, String option, String fallback) {
    return rooms.getOrDefault(room, Map.of()).getOrDefault(option, fallback);
  }

  /**
   * A room's values of a list option such as {@code bypass-networks}: a comma-separated value, or
   * the entries of a YAML list (bound as {@code option.0}, {@code option.1}, …), trimmed, blanks
   * dropped.
   */
  public List<String> roomOptionList(String room, String option) {
    List<String> values = new ArrayList<>();
    Map<String, String> settings = rooms.getOrDefault(room, Map.of());
    new java.util.TreeMap<>(settings)
        .forEach(
            (key, value) -> {
              if (value != null
                  && (key.equals(option)
                      || key.startsWith(option + ".")
                      || key.startsWith(option + "["))) {
                for (String part : value.split(",")) {
                  if (!part.isBlank()) {
                    values.add(part.trim());
                  }
                }
              }
            });
    return values;
  }

  private static boolean isRoomOption(String key) {
    int end = key.length();
    for (char stop : new char[] {'[', '.'}) {
      int at = key.indexOf(stop);
      if (at >= 0) {
        end = Math.min(end, at);
      }
    }
    return ROOM_OPTIONS.contains(key.substring(0, end));
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
        values.keySet().removeIf(AnteroomProperties::isRoomOption);
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
