package io.anteroom.gateway.browser;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The waiting page in a real browser (headless Chromium): it shows the place in line, keeps it
 * across a refresh and a second tab, and takes the visitor to the origin by itself when the
 * admission worker lets them in, with or without JavaScript. Every visitor is a fresh browser.
 * Screenshots land in {@code gateway/target/screenshots}.
 */
@GatewayIntegrationTest(
    properties = {
      // Selenium warns that it has no CDP bindings for this Chromium; these tests use none.
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class WaitingPageBrowserIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final String PRODUCT = "/products/1";
  static final String ORIGIN_HEADING = "Product page";
  static final String WAITING_HEADING = "You are in line";

  final QueueId queue = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired QueueKeys keys;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired SettingsStore settings;

  /** Redis was emptied by the extension; the queue goes on again at one person per second. */
  @BeforeEach
  void turnTheQueueOnAtOnePerSecond() {
    origin.resetRequests();
    settings.put("shop", null, Map.of("admit-per-second", "1")).block();
    active.activate(queue, Activation.MANUAL).block();
    mirror.refresh().block();
    policyMirror.refresh().block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> mirror.isActive(queue) && policyMirror.policy("shop").admitPerSecond() == 1);
  }

  @Test
  void visitorSeesTheWaitingPageAndArrivesAtTheOriginWithoutAnyClick() {
    oneInAndOneWaiting();
    int straightIn = originHits();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(driver.getTitle()).isEqualTo(WAITING_HEADING);
      assertThat(heading(driver)).isEqualTo(WAITING_HEADING);
      assertThat(position(driver)).as("behind the one waiting plain client").isEqualTo(2);
      browser.size(HeadlessChromium.DESKTOP).screenshot("waiting-page-desktop");
      browser.size(HeadlessChromium.MOBILE).screenshot("waiting-page-mobile");
      browser.size(HeadlessChromium.DESKTOP);
      assertThat(originHits()).as("the browser waited, away from the origin").isEqualTo(straightIn);

      List<Long> shown = new ArrayList<>();
      try (WorkerFixture worker = startWorker()) {
        await()
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(100))
            .ignoreExceptionsInstanceOf(WebDriverException.class)
            .until(() -> onOriginOrRecordPosition(driver, shown));
      }
      browser.screenshot("origin-after-waiting");

      assertThat(driver.getCurrentUrl()).isEqualTo(url());
      assertThat(shown)
          .as("positions the page showed while waiting never go up")
          .isNotEmpty()
          .allSatisfy(place -> assertThat(place).isBetween(1L, 2L))
          .isSortedAccordingTo((a, b) -> Long.compare(b, a));
      assertThat(originHits()).isEqualTo(straightIn + 1);
    }
  }

  /**
   * A locked phone stops the page's timers; shown again, the page asks at once and, still in line,
   * says the place was kept. The clock the page reads is moved a minute on while it is hidden.
   */
  @Test
  void aPageShownAgainAfterAPhoneWasLockedAsksAtOnceAndSaysThePlaceWasKept() {
    oneInAndOneWaiting();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());
      assertThat(driver.findElement(By.id("kept")).getText())
          .as("the room's abandon-after, said on the page")
          .contains("5 minutes");
      assertThat(driver.findElement(By.id("back")).isDisplayed()).isFalse();
      JavascriptExecutor js = (JavascriptExecutor) driver;
      String visibility =
          "Object.defineProperty(document, 'hidden', {configurable: true, get: function () {"
              + " return window.__hidden; }});"
              + "window.__hidden = arguments[0];"
              + "document.dispatchEvent(new Event('visibilitychange'));";

      js.executeScript(visibility, true);
      js.executeScript("var real = Date.now; Date.now = function () { return real() + 60000; };");
      js.executeScript(visibility, false);

      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> driver.findElement(By.id("back")).isDisplayed());
      assertThat(position(driver)).isEqualTo(2);
      browser.screenshot("waiting-page-back");
    }
  }

  @Test
  void refreshKeepsThePlace() {
    oneInAndOneWaiting();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());
      long place = position(driver);
      String ticket = driver.manage().getCookieNamed("anteroom_ticket_shop").getValue();
      // Someone joins behind, so a browser that lost its place would now come after them.
      joinAsPlainClient();

      driver.navigate().refresh();

      assertThat(heading(driver)).isEqualTo(WAITING_HEADING);
      assertThat(position(driver)).isEqualTo(place).isEqualTo(2);
      assertThat(driver.manage().getCookieNamed("anteroom_ticket_shop").getValue())
          .isEqualTo(ticket);
    }
  }

  @Test
  void withoutJavaScriptTheMetaRefreshStillLetsTheVisitorIn() {
    oneInAndOneWaiting();
    try (HeadlessChromium browser = HeadlessChromium.withoutJavaScript()) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(driver.getTitle()).isEqualTo(WAITING_HEADING);
      assertThat(position(driver)).isEqualTo(2);
      // With scripting off the parser turns <noscript> into markup; with it on, into plain text.
      assertThat(driver.findElements(By.cssSelector("noscript > meta[http-equiv=refresh]")))
          .as("the browser really runs without JavaScript")
          .hasSize(1);
      browser.screenshot("waiting-page-without-javascript");

      try (WorkerFixture worker = startWorker()) {
        await()
            .atMost(Duration.ofSeconds(40))
            .pollInterval(Duration.ofMillis(200))
            .ignoreExceptionsInstanceOf(WebDriverException.class)
            .until(() -> ORIGIN_HEADING.equals(heading(driver)));
      }
      assertThat(driver.getCurrentUrl()).isEqualTo(url());
    }
  }

  @Test
  void aSecondTabKeepsTheSamePlace() {
    oneInAndOneWaiting();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());
      long place = position(driver);
      String firstTab = driver.getWindowHandle();
      joinAsPlainClient();

      driver.switchTo().newWindow(WindowType.TAB);
      driver.get(url());

      assertThat(driver.getWindowHandle()).isNotEqualTo(firstTab);
      assertThat(heading(driver)).isEqualTo(WAITING_HEADING);
      assertThat(position(driver)).isEqualTo(place).isEqualTo(2);
      driver.switchTo().window(firstTab);
      assertThat(position(driver)).isEqualTo(place);
    }
  }

  /**
   * Plain clients arrive until one is waiting: the first takes the bucket's only token and goes
   * straight in (more would only if a second passed before the next arrival); a browser arriving
   * next stands at position 2.
   */
  private void oneInAndOneWaiting() {
    await().atMost(Duration.ofSeconds(10)).until(() -> joinAsPlainClient() == 1);
  }

  /**
   * A new plain HTTP client asks for the product; its place in line, 0 when it went straight in.
   */
  private long joinAsPlainClient() {
    String body = new Visitor(port).json(PRODUCT).body();
    return body.contains(ORIGIN_HEADING) ? 0 : Visitor.field(body, "position");
  }

  private static int originHits() {
    return origin.findAll(getRequestedFor(urlPathEqualTo(PRODUCT))).size();
  }

  private WorkerFixture startWorker() {
    return WorkerFixture.running(redis.uri(), keys, policies, "100ms");
  }

  /** True once the tab shows the origin; until then notes each new position the page shows. */
  private static boolean onOriginOrRecordPosition(WebDriver driver, List<Long> shown) {
    if (ORIGIN_HEADING.equals(heading(driver))) {
      return true;
    }
    long position = position(driver);
    if (shown.isEmpty() || shown.get(shown.size() - 1) != position) {
      shown.add(position);
    }
    return false;
  }

  private String url() {
    return "http://127.0.0.1:" + port + PRODUCT;
  }

  private static String heading(WebDriver driver) {
    List<WebElement> headings = driver.findElements(By.tagName("h1"));
    return headings.isEmpty() ? "" : headings.get(0).getText();
  }

  private static long position(WebDriver driver) {
    return Long.parseLong(driver.findElement(By.id("position")).getText().trim());
  }
}
