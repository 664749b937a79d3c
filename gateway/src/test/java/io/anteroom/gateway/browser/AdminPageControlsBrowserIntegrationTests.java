package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;

/**
 * The admin page's controls in headless Chromium: the operator sees who the token is, changes the
 * mode of the room and of a queue (closing and pausing ask first; cancelling changes nothing), sets
 * rates and caps, switches the failure policy, releases a visitor, and reads the change in the
 * Audit panel; a viewer sees every control disabled. Screenshots land in {@code
 * gateway/target/screenshots}.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + AdminPageControlsBrowserIntegrationTests.TOKEN,
      "anteroom.admin.tokens.vera.role=viewer",
      // printf %s browser-viewer-token-0123456789ab | sha256sum
      "anteroom.admin.tokens.vera.sha256="
          + "88d9f6aae39ac1df59fd776af55ccb4f0bb7fc946c777ed29242feaa70706f11",
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class AdminPageControlsBrowserIntegrationTests {

  static final String TOKEN = "browser-admin-token-0123456789abcdef";
  static final String VIEWER = "browser-viewer-token-0123456789ab";
  static final Duration PAGE_WAIT = Duration.ofSeconds(15);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;

  final QueueId queue = QueueId.of("shop", "9");

  @Test
  void operatorClosesTheRoomOnlyAfterConfirmingAndSeesItInTheAudit() {
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = signedIn(browser, TOKEN);
      assertThat(text(driver, By.id("who"))).isEqualTo("Signed in as admin (admin)");
      WebElement form = driver.findElement(By.cssSelector("#room-shop form.mode-form"));
      new Select(form.findElement(By.name("mode"))).selectByValue("closed");
      new Select(form.findElement(By.name("closed-line"))).selectByValue("clear");

      form.findElement(By.cssSelector("button.set-mode")).click();
      WebElement dialog = driver.findElement(By.id("confirm"));
      await().atMost(PAGE_WAIT).until(dialog::isDisplayed);
      assertThat(text(driver, By.id("confirm-text")))
          .isEqualTo(
              "Close the room shop: visitors without a pass get the closed page, and everyone in"
                  + " line loses their place.");
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-confirm");
      driver.findElement(By.id("confirm-no")).click();
      await().atMost(PAGE_WAIT).until(() -> !dialog.isDisplayed());
      assertThat(settingsHash()).as("cancelled: nothing changes").doesNotContainKey("mode");

      form.findElement(By.cssSelector("button.set-mode")).click();
      await().atMost(PAGE_WAIT).until(dialog::isDisplayed);
      driver.findElement(By.id("confirm-yes")).click();
      await().atMost(PAGE_WAIT).until(() -> "closed".equals(settingsHash().get("mode")));
      assertThat(settingsHash()).containsEntry("closed-line", "clear");

      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> cellOfFirstAuditRow(driver, "what").equals("room-settings"));
      assertThat(cellOfFirstAuditRow(driver, "who")).isEqualTo("admin");
      assertThat(cellOfFirstAuditRow(driver, "new")).isEqualTo("{mode=closed, closed-line=clear}");
      browser.screenshot("admin-audit");
    }
  }

  @Test
  void operatorPausesOneQueueAfterConfirmingAndSetsRatesAndCaps() {
    QueueFixtures.lineUp(store, policies, queue, 2);
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = signedIn(browser, TOKEN);
      WebElement mode = driver.findElement(By.cssSelector("#room-shop form.mode-form"));
      mode.findElement(By.name("item")).sendKeys("9");
      new Select(mode.findElement(By.name("mode"))).selectByValue("paused");
      assertThat(mode.findElement(By.cssSelector(".closed-line")).isDisplayed())
          .as("the line's fate is asked only when closing")
          .isFalse();
      mode.findElement(By.cssSelector("button.set-mode")).click();
      await().atMost(PAGE_WAIT).until(() -> driver.findElement(By.id("confirm")).isDisplayed());
      assertThat(text(driver, By.id("confirm-text")))
          .isEqualTo("Pause the queue shop:9: nobody is admitted until it is resumed.");
      driver.findElement(By.id("confirm-yes")).click();
      await().atMost(PAGE_WAIT).until(() -> "paused".equals(settingsHash().get("9/mode")));

      WebElement limits = driver.findElement(By.cssSelector("#room-shop form.rate"));
      limits.findElement(By.name("new-users-per-minute")).sendKeys("120");
      limits.findElement(By.name("total-active-users")).sendKeys("500");
      limits.findElement(By.name("max-active")).sendKeys("40");
      limits.findElement(By.cssSelector("button.set-rate")).click();
      await()
          .atMost(PAGE_WAIT)
          .until(() -> "120".equals(settingsHash().get("new-users-per-minute")));
      assertThat(settingsHash())
          .containsEntry("total-active-users", "500")
          .containsEntry("max-active", "40")
          .doesNotContainKey("admit-per-second");
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(
              () ->
                  "120"
                      .equals(
                          limits
                              .findElement(By.name("new-users-per-minute"))
                              .getAttribute("placeholder")));
    }
  }

  @Test
  void operatorReleasesAVisitorAfterConfirming() {
    List<String> visitors = QueueFixtures.lineUp(store, policies, queue, 2);
    active.activate(queue, Activation.MANUAL).block();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = signedIn(browser, TOKEN);
      WebElement release = driver.findElement(By.cssSelector("#room-shop form.release-form"));
      release.findElement(By.name("item")).sendKeys("9");
      release.findElement(By.name("visitor")).sendKeys(visitors.get(0));
      release.findElement(By.cssSelector("button.release")).click();
      await().atMost(PAGE_WAIT).until(() -> driver.findElement(By.id("confirm")).isDisplayed());
      assertThat(text(driver, By.id("confirm-text")))
          .contains("Release visitor " + visitors.get(0));
      assertThat(store.counts(queue).block().waiting()).as("not before confirming").isEqualTo(2);

      driver.findElement(By.id("confirm-yes")).click();
      await().atMost(PAGE_WAIT).until(() -> store.counts(queue).block().waiting() == 1);
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> cellOfFirstAuditRow(driver, "what").equals("release"));
    }
  }

  @Test
  void adminSwitchesTheFailurePolicyOpenAfterConfirming() {
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = signedIn(browser, TOKEN);
      WebElement form = driver.findElement(By.cssSelector("#room-shop form.failure-form"));
      new Select(form.findElement(By.name("failure-policy"))).selectByValue("open");
      form.findElement(By.cssSelector("button.set-failure-policy")).click();
      await().atMost(PAGE_WAIT).until(() -> driver.findElement(By.id("confirm")).isDisplayed());
      driver.findElement(By.id("confirm-yes")).click();

      await()
          .atMost(PAGE_WAIT)
          .until(() -> policyMirror.policy("shop").failurePolicy() == FailurePolicy.OPEN);
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> text(driver, By.cssSelector("#room-shop .failure-current")).equals("open"));
    }
  }

  @Test
  void aViewerSeesWhoTheyAreAndEveryControlDisabled() {
    QueueFixtures.lineUp(store, policies, queue, 1);
    active.activate(queue, Activation.MANUAL).block();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = signedIn(browser, VIEWER);
      assertThat(text(driver, By.id("who"))).isEqualTo("Signed in as vera (viewer)");
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(
              () ->
                  !driver.findElements(By.cssSelector("tr[data-queue='shop:9'] button")).isEmpty());
      await()
          .atMost(PAGE_WAIT)
          .until(() -> !driver.findElements(By.cssSelector("#audit-entries tr")).isEmpty());

      // The page draws the room again on every poll: read every control in one script, so no
      // element goes stale between finding and asking it.
      @SuppressWarnings("unchecked")
      List<String> controls =
          (List<String>)
              ((JavascriptExecutor) driver)
                  .executeScript(
                      "return Array.from(document.querySelectorAll(arguments[0]))"
                          + ".map(c => c.tagName + ' ' + (c.name || c.className)"
                          + " + (c.disabled ? ' disabled' : ' enabled'));",
                      "#room-shop form input, #room-shop form select, #room-shop form button,"
                          + " #room-shop td.actions button, #room-shop .autopilot-switch");
      assertThat(controls).hasSizeGreaterThan(15);
      assertThat(controls).allSatisfy(control -> assertThat(control).endsWith(" disabled"));
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(
              () ->
                  "Needs the admin role"
                      .equals(
                          driver
                              .findElement(By.cssSelector("#room-shop button.set-failure-policy"))
                              .getAttribute("title")));
      assertThat(driver.findElement(By.id("sign-out")).isEnabled()).isTrue();
      browser.size(HeadlessChromium.DESKTOP).screenshot("admin-viewer");
    }
  }

  private WebDriver signedIn(HeadlessChromium browser, String token) {
    WebDriver driver = browser.driver();
    driver.get("http://127.0.0.1:" + managementPort + "/admin");
    WebElement field = driver.findElement(By.id("token"));
    field.sendKeys(token);
    driver.findElement(By.id("sign-in-button")).click();
    await()
        .atMost(PAGE_WAIT)
        .until(
            () ->
                !driver.findElements(By.id("room-shop")).isEmpty()
                    && driver.findElement(By.id("who")).isDisplayed());
    return driver;
  }

  private static String cellOfFirstAuditRow(WebDriver driver, String column) {
    return text(driver, By.cssSelector("#audit-entries tr:first-child td." + column));
  }

  private static String text(WebDriver driver, By by) {
    List<WebElement> found = driver.findElements(by);
    return found.isEmpty() ? "" : found.get(0).getText();
  }

  private Map<String, String> settingsHash() {
    return QueueFixtures.settingsHash(connector, keys, "shop");
  }
}
