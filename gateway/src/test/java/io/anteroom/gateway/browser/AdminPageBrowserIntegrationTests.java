package io.anteroom.gateway.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The admin page in a real browser (headless Chromium): the operator signs in with the token,
 * activates a queue by its item id, sees it listed with its line, and changes the room's rate.
 * Screenshots land in {@code gateway/target/screenshots}.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false",
      "management.server.port=0",
      "anteroom.admin.token=" + AdminPageBrowserIntegrationTests.TOKEN,
      // Selenium warns that it has no CDP bindings for this Chromium; these tests use none.
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
class AdminPageBrowserIntegrationTests {

  static final String TOKEN = "browser-test-token-0123456789abcdef";
  static final Duration PAGE_WAIT = Duration.ofSeconds(15);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  static WireMockServer origin = GatewayTestSetup.origin();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    GatewayTestSetup.properties(registry, redis, origin);
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop();
  }

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired RedisConnector connector;
  @Autowired QueueKeys keys;

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

      driver.navigate().refresh();
      await()
          .atMost(PAGE_WAIT)
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> "3".equals(cell(driver, "waiting")));
      assertThat(driver.findElement(By.id("sign-in")).isDisplayed())
          .as("the token is kept for this tab")
          .isFalse();
    }
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
