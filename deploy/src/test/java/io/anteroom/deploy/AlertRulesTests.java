package io.anteroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.deploy.AlertRules.Alert;
import io.anteroom.deploy.AlertRules.Expectation;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AlertRulesTests {

  static final Path OPERATIONS = Path.of("../docs/operations.md");
  static final Pattern RUNBOOK = Pattern.compile("docs/operations\\.md#([a-z0-9-]+)$");
  static final Pattern HEADING = Pattern.compile("(?m)^#{2,4} (.+)$");

  final List<Alert> alerts = AlertRules.alerts();

  @Test
  void shipsTheAlertsOfIssue21() {
    assertThat(alerts)
        .extracting(Alert::name)
        .doesNotHaveDuplicates()
        .contains(
            "AnteroomLineGrowing",
            "AnteroomRedisBreakerOpen",
            "AnteroomFailurePolicyOpen",
            "AnteroomAdmissionStalled",
            "AnteroomOriginErrors");
  }

  @Test
  void everyAlertHasASeveritySaysWhereAndEndsWithItsSectionOfTheOperatorsGuide() {
    Set<String> anchors = anchors(YamlFiles.read(OPERATIONS));
    for (Alert alert : alerts) {
      String summary = String.valueOf(alert.notes().get("summary"));
      String description = String.valueOf(alert.notes().get("description"));
      Matcher runbook = RUNBOOK.matcher(description);

      assertThat(alert.labels().get("severity")).as(alert.name()).isIn("critical", "warning");
      assertThat(summary + description)
          .as("%s names the room or the instance it is about", alert.name())
          .containsAnyOf("$labels.room", "$labels.instance", "admission worker");
      assertThat(runbook.find()).as("%s: %s", alert.name(), description).isTrue();
      assertThat(runbook.group(1)).isEqualTo(alert.name().toLowerCase(Locale.ROOT)).isIn(anchors);
    }
  }

  @Test
  void everyAlertFiresInATestCaseAndStaysQuietInAnother() {
    List<Expectation> expectations = AlertRules.expectations();
    Set<String> names = alerts.stream().map(Alert::name).collect(Collectors.toSet());

    assertThat(AlertRules.testedFiles()).containsExactly(AlertRules.RULES.getFileName().toString());
    assertThat(expectations).extracting(Expectation::alert).allMatch(names::contains);
    for (String name : names) {
      assertThat(expectations)
          .filteredOn(e -> e.alert().equals(name))
          .extracting(Expectation::fires)
          .as(name)
          .contains(true, false);
    }
  }

  /** GitHub's anchors of the Markdown headings: lower case, spaces to dashes, no punctuation. */
  static Set<String> anchors(String markdown) {
    Matcher headings = HEADING.matcher(markdown);
    Set<String> anchors = new HashSet<>();
    while (headings.find()) {
      anchors.add(
          headings
              .group(1)
              .trim()
              .toLowerCase(Locale.ROOT)
              .replaceAll("[^a-z0-9 _-]", "")
              .replace(' ', '-'));
    }
    return anchors;
  }
}
