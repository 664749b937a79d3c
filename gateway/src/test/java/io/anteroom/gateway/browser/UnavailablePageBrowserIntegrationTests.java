package io.anteroom.gateway.browser;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A newcomer's browser while Redis is down and the room fails closed: the "temporarily unavailable"
 * page, which loads the URL again by itself and so joins the line once Redis is back. The
 * screenshot lands in {@code gateway/target/screenshots}.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false",
      "management.server.port=0",
      "logging.level.org.openqa.selenium.devtools.CdpVersionFinder=error",
      "logging.level.org.openqa.selenium.chromium.ChromiumDriver=error"
    })
class UnavailablePageBrowserIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  static WireMockServer origin = GatewayTestSetup.origin();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    GatewayTestSetup.properties(registry, redis, origin);
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop();
  }

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
