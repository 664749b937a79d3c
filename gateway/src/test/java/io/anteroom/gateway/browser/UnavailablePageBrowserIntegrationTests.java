package io.anteroom.gateway.browser;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A newcomer's browser while Redis is down and the room fails closed: the "temporarily unavailable"
 * page, which loads the URL again by itself and so joins the line once Redis is back. The
 * screenshot lands in {@code gateway/target/screenshots}.
 */
@GatewayIntegrationTest(
    properties = {
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
@SystemTest
class UnavailablePageBrowserIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;

  @Test
  void newcomerSeesTheUnavailablePageThenJoinsTheLineByItselfOnceRedisIsBack() {
    QueueId queue = QueueId.of("shop", "3");
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(queue));
    Visitor.lineUpSomeone(port, "/products/3");
    origin.resetRequests();
    try (HeadlessChromium browser = HeadlessChromium.start()) {
      WebDriver driver = browser.driver();
      redis.server().kill();
      try {
        driver.get("http://127.0.0.1:" + port + "/products/3");

        assertThat(driver.getTitle()).isEqualTo("Temporarily unavailable");
        browser.size(HeadlessChromium.DESKTOP).screenshot("unavailable-page-desktop");
        browser.size(HeadlessChromium.MOBILE).screenshot("unavailable-page-mobile");
        // Loading the URL again by itself is what this page is for, with or without JavaScript.
        Axe.assertNoSeriousViolations(driver, "unavailable", List.of("meta-refresh"));
      } finally {
        redis.server().restart();
      }

      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptionsInstanceOf(WebDriverException.class)
          .untilAsserted(
              () ->
                  assertThat(driver.findElement(By.tagName("h1")).getText())
                      .isEqualTo("You are in line"));
      assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/3")))).isEmpty();
    }
  }
}
