package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.admin.AdminClient;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueCounts;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
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
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The visitor pages in a real browser (headless Chromium): Korean for a Korean browser, the paused
 * and closed pages, the operator message appearing on an open page once it is set, and no serious
 * or critical axe-core finding on any of them. Screenshots land in {@code
 * gateway/target/screenshots}.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + VisitorPagesBrowserIntegrationTests.TOKEN,
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class VisitorPagesBrowserIntegrationTests {

  static final String TOKEN = "test-admin-token-pages-0123456789";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final String PRODUCT = "/products/1";

  final QueueId queue = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired SettingsStore settings;
  @Autowired QueueKeys keys;
  @Autowired RoomPolicies policies;
  @Autowired QueueStore store;

  /** Redis was emptied by the extension; nobody is let in, so every browser waits. */
  @BeforeEach
  void turnTheQueueOn() {
    settings.put("shop", null, Map.of("admit-per-second", "1")).block();
    active.activate(queue, Activation.MANUAL).block();
    mirror.refresh().block();
    policyMirror.refresh().block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> mirror.isActive(queue) && policyMirror.policy("shop").admitPerSecond() == 1);
    await().atMost(Duration.ofSeconds(10)).until(() -> joinAsPlainClient() == 1);
  }

  @Test
  void aKoreanBrowserGetsTheKoreanWaitingPage() {
    try (HeadlessChromium browser = HeadlessChromium.inLanguage("ko")) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(lang(driver)).isEqualTo("ko");
      assertThat(heading(driver)).isEqualTo("대기열에 들어와 있습니다");
      assertThat(driver.getTitle()).isEqualTo("대기열에 들어와 있습니다");
      assertThat(driver.findElement(By.id("eta")).getText()).matches("1분 미만|약 \\d+분");
      assertThat(driver.findElements(By.cssSelector("[aria-live=polite] #position"))).hasSize(1);
      browser.size(HeadlessChromium.DESKTOP).screenshot("waiting-page-ko-desktop");
      browser.size(HeadlessChromium.MOBILE).screenshot("waiting-page-ko-mobile");
      Axe.assertNoSeriousViolations(driver, "Korean waiting");
    }
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(lang(driver)).isEqualTo("en");
      assertThat(heading(driver)).isEqualTo("You are in line");
      Axe.assertNoSeriousViolations(driver, "English waiting");
      browser.size(HeadlessChromium.MOBILE).screenshot("waiting-page-en-mobile");
    }
  }

  @Test
  void axeReportsTheProblemsOfABrokenPage() {
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(
          "data:text/html,<html><body><img src='x.png'>"
              + "<p style='color:%23ddd;background:%23fff'>faint</p></body></html>");

      assertThat(Axe.seriousViolations(driver))
          .anySatisfy(v -> assertThat(v).startsWith("image-alt"))
          .anySatisfy(v -> assertThat(v).startsWith("html-has-lang"))
          .anySatisfy(v -> assertThat(v).startsWith("color-contrast"));
    }
  }

  @Test
  void thePausedPageSaysSoAndKeepsThePlace() {
    setMode("paused");
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(heading(driver)).isEqualTo("You are in line");
      assertThat(driver.findElement(By.id("paused")).isDisplayed()).isTrue();
      assertThat(driver.findElement(By.id("paused")).getText()).contains("paused");
      assertThat(driver.findElement(By.id("position")).getText()).isEqualTo("2");
      browser.size(HeadlessChromium.DESKTOP).screenshot("paused-page-desktop");
      browser.size(HeadlessChromium.MOBILE).screenshot("paused-page-mobile");
      Axe.assertNoSeriousViolations(driver, "paused");
    }
  }

  /**
   * A tab left in the background past the room's abandon timeout still holds its place: its page
   * keeps asking in the background. A tab that stopped asking would come back requeued, with a new
   * ticket.
   */
  @Test
  void aHiddenTabKeepsItsPlace() {
    Duration abandonAfter = Duration.ofSeconds(8);
    settings
        .put(
            "shop", null, Map.of("mode", "paused", "abandon-after", abandonAfter.toSeconds() + "s"))
        .block();
    policyMirror.refresh().block();
    try (HeadlessChromium browser = HeadlessChromium.start();
        WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "200ms")) {
      WebDriver driver = browser.driver();
      driver.get(url());
      String ticket = driver.manage().getCookieNamed("anteroom_ticket_shop").getValue();
      String waitingTab = driver.getWindowHandle();
      ((JavascriptExecutor) driver)
          .executeScript(
              "window.wentHidden = false; document.addEventListener('visibilitychange',"
                  + " function () { if (document.hidden) { window.wentHidden = true; } });");

      driver.switchTo().newWindow(WindowType.TAB);
      driver.get("about:blank");
      long hidden = System.nanoTime();
      // In the background until abandon-after has passed since, and the worker has given up the
      // plain client ahead of it in line, who never asks again; the hidden tab is never given up.
      await()
          .atMost(Duration.ofSeconds(40))
          .pollInterval(Duration.ofMillis(250))
          .failFast("the hidden tab was given up", () -> counts().abandoned() > 1)
          .until(
              () ->
                  counts().abandoned() == 1
                      && System.nanoTime() - hidden > abandonAfter.plusSeconds(1).toNanos());
      assertThat(counts().waiting()).as("the hidden tab, still in line").isEqualTo(1);
      driver.switchTo().window(waitingTab);

      assertThat(((JavascriptExecutor) driver).executeScript("return window.wentHidden"))
          .as("the waiting tab really was in the background")
          .isEqualTo(true);
      await()
          .pollDelay(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .untilAsserted(
              () -> {
                assertThat(driver.findElement(By.id("requeued")).isDisplayed()).isFalse();
                assertThat(driver.findElement(By.id("position")).getText()).isIn("1", "2");
              });
      assertThat(driver.manage().getCookieNamed("anteroom_ticket_shop").getValue())
          .isEqualTo(ticket);
    }
  }

  /**
   * A visitor whose tab is in the background when their turn comes: the page offers a notification
   * (a button; nothing is asked on load), then says so in the title, on the page and in a silent
   * notification, with the time to come back by; once that has passed, that the place was given up.
   */
  @Test
  void aTurnThatComesInTheBackgroundIsCalledAndSaysWhenItIsGivenUp() {
    settings
        .put(
            "shop", null, Map.of("mode", "paused", "abandon-after", "9s", "session-duration", "8s"))
        .block();
    policyMirror.refresh().block();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      JavascriptExecutor js = (JavascriptExecutor) driver;
      driver.get(url());
      String title = driver.getTitle();
      assertThat(js.executeScript("return Notification.permission")).isEqualTo("default");
      assertThat(driver.findElement(By.id("notify")).isDisplayed()).isTrue();
      assertThat(driver.findElement(By.id("notify")).getText())
          .isEqualTo("Notify me when it is my turn");

      // The tab goes to the background with notifications allowed; a stand-in records them.
      js.executeScript(
          "Object.defineProperty(document, 'hidden', {configurable: true, get: function () {"
              + " return true; }});"
              + "window.notes = [];"
              + "window.Notification = function (title, options) {"
              + " window.notes.push(title + '|' + options.body + '|' + options.silent); };"
              + "window.Notification.permission = 'granted';");
      setMode("queue");
      try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "200ms")) {
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptionsInstanceOf(WebDriverException.class)
            .until(() -> driver.findElement(By.id("turn")).isDisplayed());
        assertThat(driver.getTitle()).isEqualTo("It is your turn \u2013 " + title);
        assertThat(driver.findElement(By.id("turn-body")).getText())
            .matches(
                "Come back to this page by .*\\d.* to go in\\. After that your place is given up\\.");
        assertThat(driver.findElement(By.id("turn-go")).getAttribute("href")).isEqualTo(url());
        @SuppressWarnings("unchecked")
        List<String> notes = (List<String>) js.executeScript("return window.notes");
        assertThat(notes)
            .singleElement()
            .satisfies(
                note -> assertThat(note).startsWith("It is your turn|Come back").endsWith("|true"));
        browser.size(HeadlessChromium.MOBILE).screenshot("turn-called-mobile");
        Axe.assertNoSeriousViolations(driver, "turn called");

        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptionsInstanceOf(WebDriverException.class)
            .until(() -> driver.findElement(By.id("turn-missed")).isDisplayed());
        assertThat(driver.findElement(By.id("turn")).isDisplayed()).isFalse();
        assertThat(driver.getTitle()).isEqualTo(title);
        assertThat(driver.findElement(By.id("turn-missed")).getText())
            .startsWith("You did not come back in time");
      }
    }
  }

  @Test
  void theClosedPageInBothLanguages() {
    setMode("closed");
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(heading(driver)).isEqualTo("This is closed");
      browser.size(HeadlessChromium.DESKTOP).screenshot("closed-page-desktop");
      browser.size(HeadlessChromium.MOBILE).screenshot("closed-page-mobile");
      Axe.assertNoSeriousViolations(driver, "closed");
    }
    try (HeadlessChromium browser = HeadlessChromium.inLanguage("ko")) {
      WebDriver driver = browser.driver();
      driver.get(url());

      assertThat(lang(driver)).isEqualTo("ko");
      assertThat(heading(driver)).isEqualTo("마감되었습니다");
      Axe.assertNoSeriousViolations(driver, "Korean closed");
    }
  }

  @Test
  void theOperatorMessageAppearsOnAnOpenPageOnceSet() {
    AdminClient admin = new AdminClient(managementPort, TOKEN);
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get(url());
      assertThat(driver.findElement(By.id("message")).isDisplayed()).isFalse();

      String text = "Doors open at 10:00 <b>sharp</b> & \"on time\"";
      HttpResponse<String> set =
          admin.put(
              "/admin/api/rooms/shop/message", "{\"message\":" + AdminJson.string(text) + "}");
      assertThat(set.statusCode()).isEqualTo(200);

      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> driver.findElement(By.id("message")).isDisplayed());
      assertThat(driver.findElement(By.id("message-text")).getText()).isEqualTo(text);
      assertThat(driver.findElements(By.cssSelector("#message b"))).as("shown as text").isEmpty();
      browser.size(HeadlessChromium.MOBILE).screenshot("waiting-page-message-mobile");
      Axe.assertNoSeriousViolations(driver, "waiting with a message");

      driver.navigate().refresh();
      assertThat(driver.findElement(By.id("message-text")).getText()).isEqualTo(text);
    }
    assertThat(new Visitor(port).json(PRODUCT).body()).contains("\"message\":\"Doors open");
    assertThat(admin.get("/admin/api/rooms/shop/message").body()).contains("Doors open");
    assertThat(
            admin
                .put("/admin/api/rooms/shop/message", "{\"message\":\"" + "x".repeat(501) + "\"}")
                .statusCode())
        .isEqualTo(400);
    assertThat(admin.put("/admin/api/rooms/shop/message", "{\"message\":null}").statusCode())
        .isEqualTo(200);
    assertThat(new Visitor(port).json(PRODUCT).body()).doesNotContain("\"message\"");
  }

  /**
   * A message set in Korean is shown to Korean pages and JSON; others get the room's message. A
   * language the room's pages do not have, and a message too long, are refused naming the field.
   */
  @Test
  void theOperatorMessageCanBeSetPerLanguage() {
    AdminClient admin = new AdminClient(managementPort, TOKEN);
    assertThat(
            admin
                .put("/admin/api/rooms/shop/message", "{\"message\":\"Doors open at 10\"}")
                .statusCode())
        .isEqualTo(200);
    HttpResponse<String> korean =
        admin.put(
            "/admin/api/rooms/shop/message", "{\"message\":\"10시에 문이 열립니다\",\"language\":\"ko\"}");
    assertThat(korean.statusCode()).isEqualTo(200);
    assertThat(korean.body()).contains("\"messages\":{\"ko\":\"10시에 문이 열립니다\"}");

    assertThat(statusMessage("ko-KR,ko;q=0.9")).isEqualTo("10시에 문이 열립니다");
    assertThat(statusMessage("en")).isEqualTo("Doors open at 10");
    assertThat(statusMessage("fr")).isEqualTo("Doors open at 10");
    try (HeadlessChromium browser = HeadlessChromium.inLanguage("ko")) {
      browser.driver().get(url());
      assertThat(browser.driver().findElement(By.id("message-text")).getText())
          .isEqualTo("10시에 문이 열립니다");
    }

    HttpResponse<String> french =
        admin.put("/admin/api/rooms/shop/message", "{\"message\":\"Bonjour\",\"language\":\"fr\"}");
    assertThat(french.statusCode()).isEqualTo(400);
    assertThat(french.body()).contains("\"field\":\"language\"");
    HttpResponse<String> tooLong =
        admin.put(
            "/admin/api/rooms/shop/message",
            "{\"message\":\"" + "가".repeat(501) + "\",\"language\":\"ko\"}");
    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat(tooLong.body()).contains("\"field\":\"message\"").contains("500");
    assertThat(
            admin
                .put("/admin/api/rooms/shop/message", "{\"message\":null,\"language\":\"ko\"}")
                .statusCode())
        .isEqualTo(200);
    assertThat(statusMessage("ko")).isEqualTo("Doors open at 10");
    admin.put("/admin/api/rooms/shop/message", "{\"message\":null}");
  }

  private String statusMessage(String acceptLanguage) {
    Visitor visitor = new Visitor(port);
    visitor.json(PRODUCT);
    HttpResponse<String> status =
        visitor.send(
            HttpRequest.newBuilder(URI.create(visitor.base() + "/_anteroom/status?room=shop"))
                .header("Accept", "application/json")
                .header("Accept-Language", acceptLanguage));
    return Visitor.text(status.body(), "message");
  }

  private void setMode(String mode) {
    settings.put("shop", null, Map.of("mode", mode)).block();
    policyMirror.refresh().block();
  }

  private QueueCounts counts() {
    return store.counts(queue).block();
  }

  private long joinAsPlainClient() {
    String body = new Visitor(port).json(PRODUCT).body();
    return body.contains("\"position\"") ? Visitor.field(body, "position") : 0;
  }

  private String url() {
    return "http://127.0.0.1:" + port + PRODUCT;
  }

  private static String lang(WebDriver driver) {
    return driver.findElement(By.tagName("html")).getAttribute("lang");
  }

  private static String heading(WebDriver driver) {
    List<WebElement> headings = driver.findElements(By.tagName("h1"));
    return headings.isEmpty() ? "" : headings.get(0).getText();
  }

  /** JSON string literals for request bodies. */
  private static final class AdminJson {
    static String string(String text) {
      return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
  }
}
