package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.PolicyProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A settings PATCH body, {@code {"admit-per-second": 80, "mode": null}}: property names to a string
 * or number to set, or null to remove that override. Reading it checks names and value types only;
 * the values themselves are checked by {@link io.anteroom.queue.policy.PolicyParser} against the
 * policy they override.
 *
 * @param set property to value (stripped text)
 * @param remove properties whose override goes
 */
record SettingsPatch(Map<String, String> set, Set<String> remove) {

  static final int MAX_VALUE_LENGTH = 64;
  static final int MAX_SHOWN_NAME = 64;

  /** Keeps the body's order, which the audit line follows. */
  SettingsPatch {
    set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
    remove = Collections.unmodifiableSet(new LinkedHashSet<>(remove));
  }

  /**
   * Reads {@code body}; each unknown name and each value that is not a string, number or null is
   * added to {@code problems}.
   */
  static SettingsPatch read(ObjectNode body, List<Problem> problems) {
    Map<String, String> set = new LinkedHashMap<>();
    Set<String> remove = new LinkedHashSet<>();
    for (Map.Entry<String, JsonNode> entry : body.properties()) {
      String name = entry.getKey();
      JsonNode value = entry.getValue();
      if (PolicyProperty.byKey(name).isEmpty()) {
        problems.add(new Problem(shown(name), "unknown property"));
      } else if (value.isNull()) {
        remove.add(name);
      } else {
        String text = text(value);
        if (text == null) {
          problems.add(new Problem(name, "must be a string, a number, or null to remove it"));
        } else if (text.isEmpty() || text.length() > MAX_VALUE_LENGTH) {
          problems.add(new Problem(name, "must be 1 to " + MAX_VALUE_LENGTH + " characters"));
        } else {
          set.put(name, text);
        }
      }
    }
    return new SettingsPatch(set, remove);
  }

  /** Every property the patch touches. */
  Set<String> properties() {
    Set<String> properties = new LinkedHashSet<>(set.keySet());
    properties.addAll(remove);
    return properties;
  }

  /** {@code overrides} with this patch applied. */
  Map<String, String> applyTo(Map<String, String> overrides) {
    Map<String, String> result = new LinkedHashMap<>(overrides);
    result.keySet().removeAll(remove);
    result.putAll(set);
    return result;
  }

  /**
   * The problems of a policy that did not parse, each {@code "<source>.<property>: <message>"},
   * with the source stripped and {@code prefix} put before each message.
   */
  static List<Problem> problems(String source, String prefix, InvalidPolicyException e) {
    List<Problem> problems = new ArrayList<>();
    for (String problem : e.problems()) {
      String rest =
          problem.startsWith(source + ".") ? problem.substring(source.length() + 1) : problem;
      int colon = rest.indexOf(": ");
      problems.add(
          colon < 0
              ? new Problem("", prefix + rest)
              : new Problem(rest.substring(0, colon), prefix + rest.substring(colon + 2)));
    }
    return problems;
  }

  private static String text(JsonNode value) {
    if (value.isString()) {
      return value.stringValue().strip();
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue().toString();
    }
    if (value.isNumber()) {
      double number = value.doubleValue();
      return Double.isFinite(number) ? PolicyView.number(number) : Double.toString(number);
    }
    return null;
  }

  private static String shown(String name) {
    return name.length() <= MAX_SHOWN_NAME ? name : name.substring(0, MAX_SHOWN_NAME) + "…";
  }
}
