package io.anteroom.gateway.origin;

import static io.anteroom.gateway.origin.OriginHeadersIntegrationTests.assertOriginSawOnlyWhatItShould;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.RemoveHopByHopHeadersFilter;
import org.springframework.context.ApplicationContext;

/**
 * With {@code anteroom.gateway.framework-header-filters=true} the framework's own header filters
 * stay, and the origin gets the same headers as with {@link OriginHeaders}.
 */
@GatewayIntegrationTest(properties = OriginHeadersRegistrar.FRAMEWORK_FILTERS + "=true")
class FrameworkHeaderFiltersIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  @Test
  void theOriginGetsTheSameHeaders() {
    assertOriginSawOnlyWhatItShould(origin, port);
  }

  @Test
  void theFrameworksFiltersAreKept() {
    assertThat(context.getBeansOfType(HttpHeadersFilter.class).values())
        .hasAtLeastOneElementOfType(RemoveHopByHopHeadersFilter.class)
        .noneMatch(filter -> filter instanceof OriginHeaders);
  }
}
