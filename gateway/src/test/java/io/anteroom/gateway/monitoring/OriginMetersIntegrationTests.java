package io.anteroom.gateway.monitoring;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.Visitor;
import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The gateway as it ships times each room's origin in its own histogram, and leaves the framework's
 * per-request meters off: the shop's product route (queue off, so every visitor is let in) to a
 * WireMock origin, scraped on the management port.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false"
    })
@AutoConfigureMetrics
class OriginMetersIntegrationTests {

  static final String ORIGIN = "anteroom_gateway_origin_seconds";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  static WireMockServer origin = GatewayTestSetup.origin();
  static final int MANAGEMENT_PORT = GatewayTestSetup.freePort();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    GatewayTestSetup.properties(registry, redis, origin);
    registry.add("management.server.port", () -> MANAGEMENT_PORT);
  }

  @BeforeAll
  static void failingPage() {
    origin.stubFor(get(urlPathEqualTo("/products/500")).willReturn(aResponse().withStatus(503)));
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop();
  }

  @LocalServerPort int port;

  @Test
  void eachAnswerOfTheOriginIsTimedInItsRoomsHistogramByStatusClass() {
    Scrape before = Scrape.of(MANAGEMENT_PORT);
    Visitor visitor = new Visitor(port);
    for (int i = 0; i < 3; i++) {
      assertThat(visitor.page("/products/7").statusCode()).isEqualTo(200);
    }
    assertThat(visitor.page("/products/500").statusCode()).isEqualTo(503);
    assertThat(visitor.page("/about").statusCode()).as("a route without a room").isEqualTo(200);

    Scrape after = Scrape.of(MANAGEMENT_PORT);
    assertThat(grown(before, after, ORIGIN + "_count", "room", "shop", "outcome", "2xx"))
        .isEqualTo(3);
    assertThat(grown(before, after, ORIGIN + "_count", "room", "shop", "outcome", "5xx"))
        .isEqualTo(1);
    assertThat(grown(before, after, ORIGIN + "_count", "room", "shop")).isEqualTo(4);
    assertThat(grown(before, after, ORIGIN + "_sum", "room", "shop")).isPositive();
    assertThat(
            grown(
                before, after, ORIGIN + "_bucket", "room", "shop", "outcome", "2xx", "le", "+Inf"))
        .isEqualTo(3);
    assertThat(after.samples().keySet())
        .filteredOn(s -> s.name().equals(ORIGIN + "_bucket"))
        .as("a histogram with buckets")
        .hasSizeGreaterThan(10);
  }

  @Test
  void theFrameworksPerRequestMetersAreOffByDefault() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/8").statusCode()).isEqualTo(200);
    assertThat(visitor.page("/about").statusCode()).isEqualTo(200);

    assertThat(Scrape.of(MANAGEMENT_PORT).names())
        .contains(ORIGIN + "_count")
        .noneMatch(name -> name.startsWith("spring_cloud_gateway_requests"))
        .noneMatch(name -> name.startsWith("http_server_requests"))
        .noneMatch(name -> name.startsWith("http_client_requests"));
  }

  private static double grown(Scrape before, Scrape after, String name, String... labels) {
    return after.sum(name, labels) - before.sum(name, labels);
  }
}
