package io.anteroom.gateway;

import io.anteroom.testing.FreePorts;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway application as it ships, started in this JVM: the shared config/anteroom.yml, the
 * test key, its own ports. For tests that need a gateway started at a chosen moment (before Redis),
 * or a second gateway beside a {@code @SpringBootTest} one. Settings are command-line arguments,
 * which rank above the configuration files.
 */
public final class GatewayApp implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final int managementPort = FreePorts.pick();

  /**
   * @param extra more {@code --name=value} arguments
   */
  public GatewayApp(String redisUri, WireMockOrigin origin, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--" + GatewayTestSetup.CONFIG,
                "--" + GatewayTestSetup.KEYS,
                "--anteroom.redis.uri=" + redisUri,
                "--ANTEROOM_ORIGIN=" + origin.url(),
                "--anteroom.gateway.cookie-secure=false",
                "--server.port=0",
                "--management.server.port=" + managementPort));
    args.addAll(List.of(extra));
    this.context =
        new SpringApplicationBuilder(GatewayApplication.class).run(args.toArray(String[]::new));
  }

  /** The visitors' port. */
  public int port() {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** The management port (actuator, admin API). */
  public int managementPort() {
    return managementPort;
  }

  public <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  @Override
  public void close() {
    context.close();
  }
}
