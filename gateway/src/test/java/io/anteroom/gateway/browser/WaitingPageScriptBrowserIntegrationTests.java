package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.line.WaitEstimate;
import io.anteroom.gateway.line.WaitingView;
import io.anteroom.gateway.status.PageText;
import io.anteroom.gateway.status.WaitWording;
import io.anteroom.gateway.status.WaitingPage;
import io.anteroom.testing.SystemTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.JavascriptExecutor;

/**
 * The waiting page's own functions, taken from the rendered page and run in headless Chromium: the
 * script words a wait range exactly as the server does, and a hidden tab polls less often but never
 * more than a third of the abandon timeout apart.
 */
@SystemTest
class WaitingPageScriptBrowserIntegrationTests {

  static HeadlessChromium browser;
  static JavascriptExecutor js;

  /** A page rendered for a room with abandon-after 90 s: its ceiling is 30 s. */
  static final String PAGE =
      new WaitingPage()
          .render(
              "shop",
              new WaitingView(
                  WaitingView.State.WAITING, 5, 5, new WaitEstimate(60, 75, 90), 4, 30, false, 0));

  @BeforeAll
  static void start() {
    browser = HeadlessChromium.start();
    browser.driver().get("about:blank");
    js = browser.driver();
  }

  @AfterAll
  static void stop() {
    browser.close();
  }

  /** The source of {@code function <name>(…) {…}} in the page's script. */
  static String function(String name) {
    int start = PAGE.indexOf("function " + name + "(");
    assertThat(start).as("the page defines " + name).isNotNegative();
    int depth = 0;
    for (int i = PAGE.indexOf('{', start); ; i++) {
      char c = PAGE.charAt(i);
      if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return PAGE.substring(start, i + 1);
      }
    }
  }

  /** The page's {@code data-eta-*} strings in {@code text}'s language, as the script reads them. */
  static String words(PageText text) {
    Map<String, String> names =
        Map.of(
            "etaUnknown", "eta.unknown",
            "etaLess", "eta.lessThanMinute",
            "etaUpToOne", "eta.upToOneMinute",
            "etaUpToMany", "eta.upToMinutes",
            "etaOne", "eta.oneMinute",
            "etaMany", "eta.minutes",
            "etaMinuteRange", "eta.minuteRange",
            "etaOneHour", "eta.oneHour",
            "etaHours", "eta.hours",
            "etaHourRange", "eta.hourRange");
    StringBuilder words = new StringBuilder("var words = {");
    names.forEach(
        (name, key) -> words.append(name).append(": \"").append(text.get(key)).append("\","));
    return words.append("};").toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"en", "ko"})
  void theScriptWordsRangesAsTheServerDoes(String language) {
    PageText text = PageText.of(language);
    String script =
        words(text)
            + function("describe")
            + function("span")
            + "return describe(arguments[0], arguments[1]);";
    List<long[]> ranges =
        List.of(
            new long[] {0, 0},
            new long[] {1, 1},
            new long[] {40, 59},
            new long[] {40, 60},
            new long[] {40, 70},
            new long[] {60, 60},
            new long[] {180, 300},
            new long[] {190, 290},
            new long[] {6000, 7800},
            new long[] {7200, 10800},
            new long[] {10800, 10800});
    for (long[] range : ranges) {
      assertThat(js.executeScript(script, range[0], range[1]))
          .as("%d..%d s", range[0], range[1])
          .isEqualTo(WaitWording.describe(range[0], range[1], text));
    }
  }

  @Test
  void aHiddenTabPollsLessOftenButNeverPastTheCeiling() {
    String script =
        "var ceiling = 30, timer = null, waits = [];"
            + "function check() {}"
            + "function setTimeout(f, ms) { waits.push(ms); return 0; }"
            + "function clearTimeout(t) {}"
            + function("schedule")
            + "Object.defineProperty(document, 'hidden', {configurable: true, get: function () {"
            + " return window.__hidden; }});"
            + "window.__hidden = arguments[0];"
            + "for (var i = 0; i < 200; i++) { schedule(arguments[1]); }"
            + "return waits;";

    @SuppressWarnings("unchecked")
    List<Number> visible = (List<Number>) js.executeScript(script, false, 25);
    @SuppressWarnings("unchecked")
    List<Number> hiddenNear = (List<Number>) js.executeScript(script, true, 4);
    @SuppressWarnings("unchecked")
    List<Number> hiddenFar = (List<Number>) js.executeScript(script, true, 25);

    assertThat(visible)
        .hasSize(200)
        .allSatisfy(ms -> assertThat(ms.doubleValue()).isEqualTo(25_000));
    assertThat(hiddenNear).allSatisfy(ms -> assertThat(ms.doubleValue()).isEqualTo(8_000));
    assertThat(hiddenFar)
        .allSatisfy(ms -> assertThat(ms.doubleValue()).isBetween(24_000.0, 30_000.0));
    assertThat(hiddenFar.stream().mapToDouble(Number::doubleValue).distinct().count())
        .as("jittered, so hidden tabs of a crowd do not poll together")
        .isGreaterThan(100);
  }

  @Test
  void theRenderedPageCarriesTheCeilingOfAThirdOfTheAbandonTimeout() {
    assertThat(PAGE).contains("var ceiling = 30;");
  }
}
