package io.anteroom.gateway.monitoring;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The gateway as it ships times each room's origin in its own histogram, and leaves the framework's
 * per-request meters off: the shop's product route (queue off, so every visitor is let in) to a
 * WireMock origin, scraped on the management port.
 */
@GatewayIntegrationTest(fixedManagementPort = true)
@AutoConfigureMetrics
class OriginMetersIntegrationTests {

  static final String ORIGIN = "anteroom_gateway_origin_seconds";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @BeforeAll
  static void failingPage() {
    origin.stubFor(get(urlPathEqualTo("/products/500")).willReturn(aResponse().withStatus(503)));
  }

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;

  @Test
  void eachAnswerOfTheOriginIsTimedInItsRoomsHistogramByStatusClass() {
    Scrape before = Scrape.of(managementPort);
    Visitor visitor = new Visitor(port);
    for (int i = 0; i < 3; i++) {
      assertThat(visitor.page("/products/7").statusCode()).isEqualTo(200);
    }
    assertThat(visitor.page("/products/500").statusCode()).isEqualTo(503);
    assertThat(visitor.page("/about").statusCode()).as("a route without a room").isEqualTo(200);

    Scrape after = Scrape.of(managementPort);
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

    assertThat(Scrape.of(managementPort).names())
        .contains(ORIGIN + "_count")
        .noneMatch(name -> name.startsWith("spring_cloud_gateway_requests"))
        .noneMatch(name -> name.startsWith("http_server_requests"))
        .noneMatch(name -> name.startsWith("http_client_requests"));
  }

  private static double grown(Scrape before, Scrape after, String name, String... labels) {
    return after.sum(name, labels) - before.sum(name, labels);
  }
}
