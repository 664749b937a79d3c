package io.anteroom.gateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.Visitor;
import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The profile framework-meters turns the framework's per-request meters back on. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false"
    })
@ActiveProfiles("framework-meters")
@AutoConfigureMetrics
class FrameworkMetersIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  static WireMockServer origin = GatewayTestSetup.origin();
  static final int MANAGEMENT_PORT = GatewayTestSetup.freePort();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    GatewayTestSetup.properties(registry, redis, origin);
    registry.add("management.server.port", () -> MANAGEMENT_PORT);
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop();
  }

  @LocalServerPort int port;

  @Test
  void theFrameworksRequestMetersCountEachForwardedRequestNextToAnteroomsOwn() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/8").statusCode()).isEqualTo(200);
    assertThat(visitor.page("/about").statusCode()).isEqualTo(200);

    Scrape scrape = Scrape.of(MANAGEMENT_PORT);
    assertThat(scrape.sum("spring_cloud_gateway_requests_seconds_count", "routeId", "shop"))
        .isEqualTo(1);
    assertThat(
            scrape.sum("spring_cloud_gateway_requests_seconds_count", "routeId", "shop-products"))
        .isEqualTo(1);
    assertThat(scrape.names()).contains("http_server_requests_seconds_count");
    assertThat(scrape.sum(OriginMetersIntegrationTests.ORIGIN + "_count", "room", "shop"))
        .isEqualTo(1);
  }
}
