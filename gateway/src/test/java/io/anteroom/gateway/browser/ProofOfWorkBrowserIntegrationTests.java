package io.anteroom.gateway.browser;

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
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The proof-of-work page in a real browser: its script solves the gateway's SHA-256 puzzle, so the
 * visitor lands in line without doing anything, and the gateway accepted the first answer.
 */
@GatewayIntegrationTest(
    properties = {
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class ProofOfWorkBrowserIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final String PATH = "/products/31";
  static final QueueId QUEUE = QueueId.of("shop", "31");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired MeterRegistry meters;

  @Test
  void thePageSolvesThePuzzleAndTheVisitorLandsInLine() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, PATH);
    settings.put("shop", null, Map.of("proof-of-work", "16")).block();
    policies.refresh().block();
    double wrongBefore = count("anteroom.gateway.tokens.rejected", "reason", "proof");

    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      driver.get("http://127.0.0.1:" + port + PATH);
      browser.size(HeadlessChromium.MOBILE).screenshot("proof-of-work-mobile");
      browser.size(HeadlessChromium.DESKTOP);

      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .until(() -> "You are in line".equals(heading(driver)));
      browser.screenshot("proof-of-work-then-in-line");

      assertThat(driver.findElement(By.id("position")).getText().trim()).isEqualTo("2");
      assertThat(store.counts(QUEUE).block().waiting()).isEqualTo(2);
      assertThat(driver.manage().getCookieNamed("anteroom_proof_shop"))
          .as("the answer is removed once used")
          .isNull();
    }
    assertThat(count("anteroom.gateway.tokens.rejected", "reason", "proof"))
        .as("the browser's first answer was right")
        .isEqualTo(wrongBefore);
  }

  double count(String name, String tag, String value) {
    var counter = meters.find(name).tag("room", "shop").tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  private static String heading(WebDriver driver) {
    List<WebElement> headings = driver.findElements(By.tagName("h1"));
    return headings.isEmpty() ? "" : headings.get(0).getText();
  }
}
