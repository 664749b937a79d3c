package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * Runs axe-core (from the test class path, never the network) on the page a browser shows, and
 * fails on any {@code serious} or {@code critical} violation, listing them.
 */
final class Axe {

  private static final String SOURCE = load();

  private Axe() {}

  static void assertNoSeriousViolations(WebDriver driver, String page) {
    assertNoSeriousViolations(driver, page, List.of());
  }

  /**
   * As {@link #assertNoSeriousViolations(WebDriver, String)}, but a finding of one of {@code
   * accepted} (rule ids) is allowed: each caller says why.
   */
  static void assertNoSeriousViolations(WebDriver driver, String page, List<String> accepted) {
    assertThat(seriousViolations(driver))
        .as("serious or critical accessibility violations on the %s page", page)
        .filteredOn(v -> accepted.stream().noneMatch(rule -> v.startsWith(rule + " ")))
        .isEmpty();
  }

  /** The ids of the rules the shown page breaks with a serious or critical impact. */
  @SuppressWarnings("unchecked")
  static List<String> seriousViolations(WebDriver driver) {
    JavascriptExecutor js = (JavascriptExecutor) driver;
    js.executeScript(SOURCE);
    Object result =
        js.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']})"
                + ".then(function (r) { done(r.violations.map(function (v) {"
                + "  return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length}; }));"
                + "}, function (e) { done([{id: 'axe-error', impact: 'critical', help: String(e)}]); });");
    List<Map<String, Object>> violations = (List<Map<String, Object>>) result;
    return violations.stream()
        .filter(v -> "serious".equals(v.get("impact")) || "critical".equals(v.get("impact")))
        .map(
            v ->
                v.get("id")
                    + " ("
                    + v.get("impact")
                    + ", "
                    + v.get("nodes")
                    + "): "
                    + v.get("help"))
        .toList();
  }

  private static String load() {
    try (InputStream in = Axe.class.getResourceAsStream("/axe.min.js")) {
      assertThat(in).as("axe.min.js on the test class path").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
