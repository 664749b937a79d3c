package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.line.WaitEstimate;
import io.anteroom.gateway.line.WaitingView;
import io.anteroom.gateway.line.WaitingView.State;
import io.anteroom.gateway.status.PageText;
import io.anteroom.gateway.status.WaitingPage;
import io.anteroom.testing.SystemTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * Every visitor page in both languages, as the gateway renders it, in real headless Chromium at 360
 * and 1280 px wide: no serious or critical axe-core finding, and with the text at 200 % nothing is
 * lost (no sideways scrolling, nothing outside the page or clipped). Screenshots of each, also at
 * 200 % text, land in {@code gateway/target/screenshots/a11y-*.png}. The pages are loaded from
 * files, so their scripts find no status endpoint and keep the state they were rendered in; the
 * proof-of-work page's puzzle is stopped once loaded. Served pages are checked by the other browser
 * tests.
 */
@SystemTest
class VisitorPagesAccessibilityBrowserIntegrationTests {

  static final Path PAGES = Path.of(System.getProperty("basedir", "."), "target", "pages");
  static final List<Integer> WIDTHS = List.of(360, 1280);
  static final String MESSAGE = "Doors open at 10:00 — 10시에 문이 열립니다";

  static final WaitingPage RENDER = new WaitingPage();

  static HeadlessChromium browser;
  static JavascriptExecutor js;

  @BeforeAll
  static void start() {
    browser = HeadlessChromium.start();
    js = browser.driver();
  }

  @AfterAll
  static void stop() {
    browser.close();
  }

  static WaitingView view(State state, boolean requeued, long startsIn) {
    WaitEstimate eta = state == State.WAITING ? new WaitEstimate(180, 240, 300) : WaitEstimate.NONE;
    return new WaitingView(state, 42, 1200, eta, 8, 30, requeued, startsIn);
  }

  /** Each page by name, rendered in a language. */
  static Stream<Arguments> pages() {
    List<Arguments> all = new ArrayList<>();
    List<Object[]> pages =
        List.of(
            page("waiting", t -> RENDER.render("shop", view(State.WAITING, false, 0), null, t)),
            page(
                "waiting-message",
                t -> RENDER.render("shop", view(State.WAITING, true, 0), MESSAGE, t)),
            page("paused", t -> RENDER.render("shop", view(State.PAUSED, false, 0), null, t)),
            page(
                "pre-queue", t -> RENDER.render("shop", view(State.PRE_QUEUE, false, 90), null, t)),
            page("turn", t -> RENDER.render("shop", view(State.WAITING, false, 0), null, t)),
            page("closed", t -> RENDER.renderClosed("shop", MESSAGE, t)),
            page("unavailable", t -> RENDER.renderUnavailable("shop", 3600, MESSAGE, t)),
            page("challenge", t -> RENDER.renderChallenge("shop", "challenge", 30, null, t)),
            page(
                "limited",
                t -> RENDER.renderLimited("shop", "places-per-ip", "limited.placesPerIp", 42, t)));
    for (String language : PageText.LANGUAGES) {
      for (Object[] page : pages) {
        all.add(Arguments.of(page[0], language, page[1]));
      }
    }
    return all.stream();
  }

  static Object[] page(String name, Function<PageText, String> render) {
    return new Object[] {name, render};
  }

  @ParameterizedTest(name = "{0} in {1}")
  @MethodSource("pages")
  void hasNoSeriousFindingsAndKeepsItsTextAt200PercentAtBothWidths(
      String name, String language, Function<PageText, String> render) {
    WebDriver driver = browser.driver();
    String html = render.apply(PageText.of(language));
    driver.get(write(name + "-" + language, html).toUri().toString());
    // The puzzle's next round of work is dropped: it would load the page again once solved.
    js.executeScript(
        "var later = window.setTimeout;"
            + "window.setTimeout = function (f) {"
            + " return f && f.name === 'work' ? 0 : later.apply(window, arguments); };");
    if (name.equals("turn")) {
      showTheTurn();
    }
    assertThat(js.executeScript("return document.documentElement.lang")).isEqualTo(language);
    // The unavailable page reloads itself after Retry-After by a meta refresh, which is its
    // purpose and works without JavaScript (axe's meta-refresh rule).
    List<String> accepted = name.equals("unavailable") ? List.of("meta-refresh") : List.of();
    for (int width : WIDTHS) {
      browser.size(new Dimension(width, width < 600 ? 800 : 900));
      assertThat(js.executeScript("return window.innerWidth")).isEqualTo((long) width);
      String shot = "a11y-" + name + "-" + language + "-" + width;
      browser.screenshot(shot);
      Axe.assertNoSeriousViolations(driver, shot, accepted);

      double before = fontSize();
      js.executeScript("document.documentElement.style.fontSize = '200%';");
      assertThat(fontSize()).as("the heading's text doubled").isEqualTo(before * 2);
      assertThat(lostText()).as("%s with text at 200 %%", shot).isEmpty();
      browser.screenshot(shot + "-text200");
      js.executeScript("document.documentElement.style.fontSize = '';");
    }
  }

  @Test
  void theTextCheckFindsAPageThatLosesText() {
    browser.size(new Dimension(360, 800));
    browser
        .driver()
        .get(
            "data:text/html,<html lang=en><main><h1>Title</h1><p style='width:900px'>wide</p>"
                + "<p style='height:1em;overflow:hidden'>one<br>two</p></main></html>");

    assertThat(lostText())
        .anySatisfy(lost -> assertThat(lost).startsWith("scrolls sideways"))
        .anySatisfy(lost -> assertThat(lost).startsWith("P# outside the page"))
        .anySatisfy(lost -> assertThat(lost).isEqualTo("P# clips its text"));
  }

  /** The waiting page as its script shows a turn that came while the tab was hidden. */
  private static void showTheTurn() {
    js.executeScript(
        "['standing', 'figures', 'note', 'notify-area'].forEach(function (id) {"
            + " document.getElementById(id).hidden = true; });"
            + "var words = document.getElementById('content').dataset;"
            + "document.getElementById('turn-body').textContent = words.turnBody.replace('{0}',"
            + " new Date(Date.UTC(2026, 11, 3, 18, 20)).toLocaleTimeString(document.documentElement.lang,"
            + " {hour: '2-digit', minute: '2-digit', timeZone: 'UTC'}));"
            + "document.getElementById('turn').hidden = false;");
  }

  private static double fontSize() {
    return ((Number)
            js.executeScript(
                "return parseFloat(getComputedStyle(document.querySelector('h1')).fontSize);"))
        .doubleValue();
  }

  /** What the page loses: sideways scrolling, and shown elements outside it or clipped. */
  @SuppressWarnings("unchecked")
  private static List<String> lostText() {
    return (List<String>)
        js.executeScript(
            "var width = document.documentElement.clientWidth, lost = [];"
                + "if (document.documentElement.scrollWidth > width + 1) {"
                + "  lost.push('scrolls sideways: ' + document.documentElement.scrollWidth"
                + "      + ' > ' + width); }"
                + "document.querySelectorAll('main, main *').forEach(function (el) {"
                + "  var style = getComputedStyle(el);"
                + "  if (el.closest('[hidden]') || style.display === 'none'"
                + "      || style.visibility === 'hidden') { return; }"
                + "  var r = el.getBoundingClientRect(), name = el.tagName + '#' + el.id;"
                + "  if (r.width === 0 && r.height === 0) { return; }"
                + "  if (r.left < -1 || r.right > width + 1) {"
                + "    lost.push(name + ' outside the page: ' + r.left + '..' + r.right); }"
                + "  var clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';"
                + "  var clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';"
                + "  if ((clipsX && el.scrollWidth > el.clientWidth + 1)"
                + "      || (clipsY && el.scrollHeight > el.clientHeight + 1)) {"
                + "    lost.push(name + ' clips its text'); }"
                + "});"
                + "return lost;");
  }

  private static Path write(String name, String html) {
    try {
      Files.createDirectories(PAGES);
      Path file = PAGES.resolve(name + ".html");
      Files.writeString(file, html, StandardCharsets.UTF_8);
      return file.toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
