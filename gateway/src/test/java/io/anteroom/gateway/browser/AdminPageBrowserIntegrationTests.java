package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;

/**
 * The admin page in a real browser (headless Chromium): the operator signs in with the token,
 * activates a queue by its item id, sees it listed with its line, and changes the room's rate; sees
 * the room's last 15 minutes as charts; and sees why the auto-pilot slowed the room, and turns it
 * off. Screenshots land in {@code gateway/target/screenshots}.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + AdminPageBrowserIntegrationTests.TOKEN,
      // Selenium warns that it has no CDP bindings for this Chromium; these tests use none.
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class AdminPageBrowserIntegrationTests {

  static final String TOKEN = "browser-test-token-0123456789abcdef";
  static final Duration PAGE_WAIT = Duration.ofSeconds(15);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;
  @Autowired RoomStore rooms;
  @Autowired RedisPilot pilot;
  @Autowired Clock clock;

  final QueueId queue = QueueId.of("shop", "9");

  @Test
  void operatorActivatesAQueueByItemIdAndSeesItWithItsLine() {
    lineUp(3);
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get("http://127.0.0.1:" + managementPort + "/admin");
      assertThat(driver.getTitle()).isEqualTo("Anteroom admin");

      signIn(driver, "not-the-token-0123456789");
      await().atMost(PAGE_WAIT).until(() -> text(driver, By.id("status")).contains("not accepted"));
      assertThat(driver.findElement(By.id("sign-in")).isDisplayed()).isTrue();

      signIn(driver, TOKEN);
      assertThat(driver.findElement(By.id("sign-in")).isDisplayed()).isFalse();
      await().atMost(PAGE_WAIT).until(() -> !driver.findElements(By.id("room-shop")).isEmpty());
      WebElement room = driver.findElement(By.id("room-shop"));
      room.findElement(By.cssSelector("form.activate-form input[name=item]")).sendKeys("9");
      room.findElement(By.cssSelector("form.activate-form button.activate-item")).click();

      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(
              () -> "3".equals(cell(driver, "waiting")) && "manual".equals(cell(driver, "active")));
      assertThat(cell(driver, "state")).isEqualTo("queueing");
      assertThat(cell(driver, "running")).isEqualTo("0");
      assertThat(active.list().block()).containsEntry(queue, Activation.MANUAL);
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-page");

      WebElement rate = room.findElement(By.cssSelector("form.rate input[name=admit-per-second]"));
      rate.sendKeys("25");
      room.findElement(By.cssSelector("form.rate button.set-rate")).click();
      await().atMost(PAGE_WAIT).until(() -> "25".equals(settingsHash().get("admit-per-second")));
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> "25".equals(cell(driver, "rate")));

      room.findElement(By.cssSelector("form.message-form input[name=message]"))
          .sendKeys("Doors open at 10:00");
      room.findElement(By.cssSelector("form.message-form button.set-message")).click();
      await()
          .atMost(PAGE_WAIT)
          .until(
              () ->
                  "Doors open at 10:00"
                      .equals(connector.commands().get(keys.message("shop")).get()));

      driver.navigate().refresh();
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> "3".equals(cell(driver, "waiting")));
      assertThat(
              driver
                  .findElement(By.cssSelector("#room-shop form.message-form input[name=message]"))
                  .getAttribute("value"))
          .as("the message in force is shown again")
          .isEqualTo("Doors open at 10:00");
      assertThat(driver.findElement(By.id("sign-in")).isDisplayed())
          .as("the token is kept for this tab")
          .isFalse();
    }
  }

  @Test
  void operatorSeesTheRoomsTotalsAgainstItsLimits() {
    connector
        .commands()
        .hset(keys.settings("shop"), "total-active-users", "5")
        .toCompletableFuture()
        .join();
    RoomPolicy limited =
        PolicyParser.apply("test", policies.configured("shop"), Map.of("total-active-users", "5"));
    // Five passes given while item 3's queue is off fill the room; the worker's check marks it.
    store.register(QueueId.of("shop", "3"), List.of("p1", "p2", "p3", "p4", "p5"), limited).block();
    rooms.check("shop", limited).block();
    lineUp(3);
    active.activate(queue, Activation.MANUAL).block();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get("http://127.0.0.1:" + managementPort + "/admin");
      signIn(driver, TOKEN);
      By waiting = By.cssSelector("#room-shop .totals [data-total=waiting]");
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> text(driver, waiting).equals("Waiting across queues: 3"));

      assertThat(text(driver, By.cssSelector("#room-shop .totals [data-total=active-users]")))
          .isEqualTo("Active users: 5 of 5");
      assertThat(
              text(driver, By.cssSelector("#room-shop .totals [data-total=new-users-per-minute]")))
          .as("no limit set: the figure alone")
          .matches("New users/min: \\d+\\.\\d");
      assertThat(text(driver, By.cssSelector("#room-shop .totals [data-total=full]")))
          .isEqualTo("Full: newcomers wait");
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-totals");
    }
  }

  @Test
  void operatorSeesTheRoomsLineAndAdmissionRateOfTheLast15MinutesAsCharts() {
    List<long[]> samples = writeHistory();
    long[] latest = samples.get(samples.size() - 1);
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get("http://127.0.0.1:" + managementPort + "/admin");
      signIn(driver, TOKEN);
      String waitingLine = "#room-shop .chart-line svg polyline[data-series=waiting]";
      await()
          .atMost(PAGE_WAIT)
          .until(() -> !driver.findElements(By.cssSelector(waitingLine)).isEmpty());

      Map<String, Object> line = chart(driver, "line", "waiting");
      assertThat(line.get("role")).isEqualTo("img");
      assertThat((String) line.get("label"))
          .contains(latest[1] + " waiting", latest[2] + " running", latest[3] + " finished");
      assertThat(line.get("title")).isEqualTo(line.get("label"));
      assertThat((Long) line.get("polylines")).as("broken where no worker ran").isEqualTo(2);
      assertPlotted(points(line), samples, sample -> (double) sample[1]);
      assertPlotted(points(chart(driver, "line", "running")), samples, sample -> sample[2]);
      assertThat((String) line.get("legend")).contains("Waiting " + latest[1]);

      Map<String, Object> rate = chart(driver, "rate", "rate");
      List<long[]> measured = samples.subList(1, samples.size());
      List<double[]> ratePoints = points(rate);
      assertPlotted(ratePoints, measured, sample -> sample[5] / 1000.0);
      assertThat((String) rate.get("label")).contains("rate set to 1 per second");
      double setY = ((Number) rate.get("setY")).doubleValue();
      for (int i = 0; i < measured.size(); i++) {
        if (measured.get(i)[5] == 1000) {
          assertThat(ratePoints.get(i)[1])
              .as("the dashed line is at 1/s")
              .isCloseTo(setY, within(0.2));
        }
      }
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-chart");

      browser.size(HeadlessChromium.MOBILE);
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> chartsFitAndAreDrawnAtTheirSize(driver));
      browser.screenshot("admin-chart-mobile");
    }
  }

  @Test
  void operatorSeesWhyTheAutoPilotSlowedTheRoomAndTurnsItOff() {
    String slow = "origin p95 1.2 s above the 800 ms target";
    connector
        .commands()
        .hset(keys.settings("shop"), Map.of("autopilot", "on", "admit-per-second", "50"))
        .toCompletableFuture()
        .join();
    PilotState cut = PilotState.START.next(clock.millis() - 2000, 0.7, slow);
    assertThat(pilot.step("shop", PilotState.START, cut).block()).isTrue();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get("http://127.0.0.1:" + managementPort + "/admin");
      signIn(driver, TOKEN);
      By summary = By.cssSelector("#room-shop .autopilot-summary");
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> text(driver, summary).equals("holding at 35/s: " + slow));

      WebElement toggle = driver.findElement(By.cssSelector("#room-shop .autopilot-switch"));
      assertThat(toggle.getAttribute("role")).isEqualTo("switch");
      assertThat(toggle.getAttribute("aria-checked")).isEqualTo("true");
      assertThat(text(driver, By.cssSelector("#room-shop .autopilot-bounds")))
          .contains("Target p95: 800ms", "Errors tolerated: 0.05", "Floor/s: 1");
      assertThat(text(driver, By.cssSelector("#room-shop .autopilot-changes li")))
          .endsWith("35/s (70 %): " + slow);
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-autopilot");

      toggle.click();
      await().atMost(PAGE_WAIT).until(() -> "off".equals(settingsHash().get("autopilot")));
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> text(driver, summary).equals("off: admitting at the configured 50/s"));
      assertThat(
              driver
                  .findElement(By.cssSelector("#room-shop .autopilot-switch"))
                  .getAttribute("aria-checked"))
          .isEqualTo("false");
    }
  }

  /**
   * Writes 100 samples as the worker does, 5 s apart over the last 10 minutes with a minute
   * missing; returns them as {at, waiting, running, finished, admitted, milli-admissions per second
   * since the sample before}.
   */
  private List<long[]> writeHistory() {
    long interval = RoomHistory.INTERVAL.toMillis();
    long tenMinutesAgo = Instant.now().minus(Duration.ofMinutes(10)).toEpochMilli();
    MutableClock clock =
        new MutableClock(Instant.ofEpochMilli(tenMinutesAgo - tenMinutesAgo % interval));
    RoomHistory history = new RedisRoomHistory(connector.commands(), keys, clock);
    List<long[]> samples = new ArrayList<>();
    long admitted = 500;
    for (int i = 0; i < 100; i++) {
      long step = i == 60 ? 13 * interval : interval;
      // Admitted per second: 1, then 0.6, 1 over the missing minute, then 0.8.
      long added = i == 60 ? 65 : i < 40 ? 5 : i < 60 ? 3 : 4;
      if (i > 0) {
        clock.advance(Duration.ofMillis(step));
        admitted += added;
      }
      long waiting = 20 + (i < 50 ? 6 * i : 6 * (100 - i));
      long running = Math.min(50, 5 + i);
      long finished = 3L * i;
      history.record("shop", new HistorySample(0, waiting, running, finished, admitted)).block();
      samples.add(
          new long[] {
            clock.millis(), waiting, running, finished, admitted, added * 1000_000 / step
          });
    }
    return samples;
  }

  /**
   * What the page shows of the room's {@code kind} chart and its {@code series}: the svg's role,
   * aria-label and title, the legend's text, the points of the series' polylines in order, and the
   * height of the dashed line of the set rate; read in one script, as the page redraws.
   */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> chart(WebDriver driver, String kind, String series) {
    return (Map<String, Object>)
        ((JavascriptExecutor) driver)
            .executeScript(
                "var figure = document.querySelector('#room-shop .chart-' + arguments[0]);"
                    + "var svg = figure.querySelector('svg');"
                    + "var lines = svg.querySelectorAll('polyline[data-series=' + arguments[1] + ']');"
                    + "var set = svg.querySelector('line[data-series=set]');"
                    + "return {role: svg.getAttribute('role'),"
                    + " label: svg.getAttribute('aria-label'),"
                    + " title: svg.querySelector('title').textContent,"
                    + " legend: figure.querySelector('.legend').textContent,"
                    + " polylines: lines.length,"
                    + " points: Array.from(lines).map(l => l.getAttribute('points')).join(' '),"
                    + " setY: set ? Number(set.getAttribute('y1')) : null};",
                kind,
                series);
  }

  private static List<double[]> points(Map<String, Object> chart) {
    List<double[]> points = new ArrayList<>();
    for (String point : ((String) chart.get("points")).trim().split(" ")) {
      String[] xy = point.split(",");
      points.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
    }
    return points;
  }

  /**
   * One point per sample, left to right in time order, each as high as its value: y is the same
   * linear function of the value for every point.
   */
  private static void assertPlotted(
      List<double[]> points, List<long[]> samples, ToDoubleFunction<long[]> value) {
    assertThat(points).hasSameSizeAs(samples);
    int low = 0;
    int high = 0;
    for (int i = 0; i < samples.size(); i++) {
      if (value.applyAsDouble(samples.get(i)) < value.applyAsDouble(samples.get(low))) {
        low = i;
      }
      if (value.applyAsDouble(samples.get(i)) > value.applyAsDouble(samples.get(high))) {
        high = i;
      }
      if (i > 0) {
        assertThat(points.get(i)[0]).isGreaterThan(points.get(i - 1)[0]);
      }
    }
    double perUnit =
        (points.get(high)[1] - points.get(low)[1])
            / (value.applyAsDouble(samples.get(high)) - value.applyAsDouble(samples.get(low)));
    assertThat(perUnit).as("higher values are drawn higher").isNegative();
    for (int i = 0; i < samples.size(); i++) {
      double expected =
          points.get(low)[1]
              + perUnit
                  * (value.applyAsDouble(samples.get(i)) - value.applyAsDouble(samples.get(low)));
      assertThat(points.get(i)[1]).as("point %d", i).isCloseTo(expected, within(0.2));
    }
  }

  /**
   * Whether the room's charts lie within the window and were drawn for the width they take (after a
   * resize the page redraws them, rather than scaling their text).
   */
  private static boolean chartsFitAndAreDrawnAtTheirSize(WebDriver driver) {
    return (Boolean)
        ((JavascriptExecutor) driver)
            .executeScript(
                "var svgs = Array.from(document.querySelectorAll('#room-shop .chart svg'));"
                    + "return svgs.length === 2 && svgs.every(s => {"
                    + " var box = s.getBoundingClientRect();"
                    + " return box.left >= 0 && box.right <= document.documentElement.clientWidth"
                    + "  && Math.abs(box.width - Number(s.getAttribute('width'))) < 1; });");
  }

  private static void signIn(WebDriver driver, String token) {
    WebElement field = driver.findElement(By.id("token"));
    field.clear();
    field.sendKeys(token);
    driver.findElement(By.id("sign-in-button")).click();
  }

  /** The text of the queue row's cell of class {@code column}; the table is redrawn every 2 s. */
  private String cell(WebDriver driver, String column) {
    return driver
        .findElement(By.cssSelector("tr[data-queue='" + queue + "'] td." + column))
        .getText()
        .trim();
  }

  private static String text(WebDriver driver, By by) {
    List<WebElement> found = driver.findElements(by);
    return found.isEmpty() ? "" : found.get(0).getText();
  }

  private void lineUp(int count) {
    QueueFixtures.lineUp(store, policies, queue, count);
  }

  private Map<String, String> settingsHash() {
    return QueueFixtures.settingsHash(connector, keys, "shop");
  }
}
