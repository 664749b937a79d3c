package io.anteroom.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code prometheus/alerts.yml} and its unit tests {@code prometheus/alerts.test.yml} (the input of
 * {@code promtool test rules}), read as plain YAML.
 */
final class AlertRules {

  static final Path RULES = Path.of("prometheus/alerts.yml");
  static final Path TESTS = Path.of("prometheus/alerts.test.yml");

  /** One alerting rule: its name, labels and annotations. */
  record Alert(String name, Map<String, Object> labels, Map<String, Object> notes) {}

  /** One expectation of a test case: at {@code eval_time}, {@code alert} fires or does not. */
  record Expectation(String test, String alert, boolean fires) {}

  private AlertRules() {}

  static List<Alert> alerts() {
    List<Alert> alerts = new ArrayList<>();
    for (Object group : YamlFiles.list(YamlFiles.load(RULES).get("groups"))) {
      for (Object entry : YamlFiles.list(YamlFiles.map(group).get("rules"))) {
        Map<String, Object> rule = YamlFiles.map(entry);
        if (rule.containsKey("alert")) {
          alerts.add(
              new Alert(
                  (String) rule.get("alert"),
                  YamlFiles.map(rule.getOrDefault("labels", Map.of())),
                  YamlFiles.map(rule.getOrDefault("annotations", Map.of()))));
        }
      }
    }
    return alerts;
  }

  static List<Expectation> expectations() {
    List<Expectation> expectations = new ArrayList<>();
    for (Object entry : YamlFiles.list(YamlFiles.load(TESTS).get("tests"))) {
      Map<String, Object> test = YamlFiles.map(entry);
      for (Object check : YamlFiles.list(test.get("alert_rule_test"))) {
        Map<String, Object> expected = YamlFiles.map(check);
        expectations.add(
            new Expectation(
                (String) test.get("name"),
                (String) expected.get("alertname"),
                !YamlFiles.list(expected.get("exp_alerts")).isEmpty()));
      }
    }
    return expectations;
  }

  /** The rule files the unit tests load, relative to the tests' directory. */
  static List<String> testedFiles() {
    return YamlFiles.list(YamlFiles.load(TESTS).get("rule_files")).stream()
        .map(String::valueOf)
        .toList();
  }
}
