package io.anteroom.gateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/** The profile framework-meters turns the framework's per-request meters back on. */
@GatewayIntegrationTest(fixedManagementPort = true)
@ActiveProfiles("framework-meters")
@AutoConfigureMetrics
class FrameworkMetersIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;

  @Test
  void theFrameworksRequestMetersCountEachForwardedRequestNextToAnteroomsOwn() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/8").statusCode()).isEqualTo(200);
    assertThat(visitor.page("/about").statusCode()).isEqualTo(200);

    Scrape scrape = Scrape.of(managementPort);
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
