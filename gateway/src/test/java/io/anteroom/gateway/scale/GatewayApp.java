package io.anteroom.gateway.scale;

import io.anteroom.gateway.GatewayApplication;
import io.anteroom.gateway.GatewayTestSetup;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One gateway application as it ships, started in this JVM beside others on the same Redis: its own
 * application.yml and the shared config/anteroom.yml, its own Redis connection and ports. Settings
 * are given as command-line arguments, which rank above the configuration files.
 */
final class GatewayApp implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final int port;

  GatewayApp(String redisUri, int originPort) {
    this.port = GatewayTestSetup.freePort();
    this.context =
        new SpringApplicationBuilder(GatewayApplication.class)
            .run(
                "--spring.config.location=file:src/main/resources/application.yml",
                "--" + GatewayTestSetup.CONFIG,
                "--" + GatewayTestSetup.KEYS,
                "--anteroom.redis.uri=" + redisUri,
                "--ANTEROOM_ORIGIN=http://127.0.0.1:" + originPort,
                "--anteroom.gateway.cookie-secure=false",
                "--anteroom.gateway.forward-pass-header="
                    + ManyInstancesIntegrationTests.PASS_HEADER,
                "--server.port=" + port,
                "--management.server.port=" + GatewayTestSetup.freePort());
  }

  /** The port visitors use. */
  int port() {
    return port;
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  @Override
  public void close() {
    context.close();
  }
}
