package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.testing.FreePorts;
import io.anteroom.testing.redis.RedisServerExtension;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Start-up of the gateway as it ships: settings that would let clients choose their own address,
 * malformed admin tokens, and {@code anteroom.*} keys that nothing reads, stop it with a message
 * naming the setting; the environment variables the demo and the deployments set do not.
 */
class GatewayStartupIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @ParameterizedTest
  @ValueSource(strings = {"native", "framework"})
  void refuseToStartWhenForwardHeadersStrategyIsOnThenNameTheSetting(String strategy) {
    Throwable error = startFails("--server.forward-headers-strategy=" + strategy);

    assertThat(messages(error))
        .contains("server.forward-headers-strategy: must be none, was " + strategy)
        .contains("anteroom.gateway.trusted-proxies");
  }

  @Test
  void refuseToStartWhenADurationHasNoUnitThenNameTheSetting() {
    Throwable error = startFails("--anteroom.gateway.hit-flush=1000");

    assertThat(messages(error))
        .contains(
            "anteroom.gateway.hit-flush: must be a whole number with a unit (ms, s, m, h, d), e.g."
                + " 30s; was '1000'");
  }

  @Test
  void refuseToStartWhenAnAnteroomKeyIsUnknownThenNameTheNearestKnownOne() {
    Throwable error =
        startFails(
            "--anteroom.visitors.trusted-proxies=10.0.0.0/8", "--anteroom.gateway.trustedproxys=a");

    assertThat(messages(error))
        .contains(
            "anteroom.visitors.trusted-proxies is not a setting; did you mean"
                + " anteroom.gateway.trusted-proxies?")
        .contains(
            "anteroom.gateway.trustedproxys is not a setting; did you mean"
                + " anteroom.gateway.trusted-proxies?");
  }

  @Test
  void refuseToStartWhenANamedAdminTokenIsMalformedThenNameIt() {
    Throwable error =
        startFails(
            "--anteroom.admin.tokens.alice.role=root",
            "--anteroom.admin.tokens.alice.sha256=" + "ab".repeat(32));

    assertThat(messages(error))
        .contains(
            "anteroom.admin.tokens.alice: role must be one of viewer, operator, admin; was 'root'");
  }

  @Test
  void startWithTheEnvironmentVariablesOfTheDemoAndTheWorkersSettings() {
    Map<String, Object> variables = new HashMap<>(System.getenv());
    variables.putAll(
        Map.of(
            "ANTEROOM_CONFIG", "../config/anteroom.yml",
            "ANTEROOM_TOKEN_KEY", GatewayTestSetup.KEY,
            "ANTEROOM_REDIS_URI", redis.uri(),
            "ANTEROOM_ORIGIN", "http://127.0.0.1:" + origin.port(),
            "ANTEROOM_ADMIN_TOKEN", "0123456789abcdef0123456789abcdef",
            "ANTEROOM_IDENTITY_SECRET", "identity-secret-of-the-tests",
            "ANTEROOM_SHOP_BYPASS_SECRET", "monitor-secret-0123456789",
            "ANTEROOM_SOMETHING_ELSE", "not a setting of Anteroom"));
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .replace(
            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));

    try (ConfigurableApplicationContext started =
        new SpringApplicationBuilder(GatewayApplication.class)
            .environment(environment)
            .run(
                "--server.port=0",
                "--management.server.port=" + FreePorts.pick(),
                "--spring.main.cloud-platform=kubernetes",
                "--anteroom.worker.tick=100ms")) {
      assertThat(started.getBean(ClientAddress.class)).isNotNull();
      assertThat(started.getEnvironment().getProperty("anteroom.redis.uri")).isEqualTo(redis.uri());
    }
  }

  private static Throwable startFails(String... extra) {
    Throwable error = catchThrowable(() -> new GatewayApp(redis.uri(), origin, extra).close());
    assertThat(error).as("start-up with %s", String.join(" ", extra)).isNotNull();
    return error;
  }

  private static String messages(Throwable error) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
