package io.anteroom.bench.micro;

import io.anteroom.gateway.GatewayApplication;
import io.anteroom.testing.FreePorts;
import java.util.Base64;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway application as it ships (the shared {@code config/anteroom.yml}, every bean wired by
 * its own configuration), started in this JVM with Redis pointed at a port where nothing listens.
 * Whatever a benchmark takes from it works without Redis or does not finish at once, which {@link
 * Synchronously} turns into a failure: so a pass holder's request that needed Redis could not be
 * measured at all.
 */
final class OfflineGateway implements AutoCloseable {

  private final ConfigurableApplicationContext context;

  OfflineGateway() {
    // The bench module logs with slf4j-simple; Boot must not insist on its own logging system.
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    this.context =
        new SpringApplicationBuilder(GatewayApplication.class)
            .run(
                // bench/micro.sh names the shipped config/anteroom.yml.
                "--ANTEROOM_CONFIG=" + System.getProperty("bench.micro.config"),
                "--anteroom.tokens.keys.main="
                    + Base64.getEncoder().encodeToString(MicroDefaults.KEY),
                "--anteroom.redis.uri=redis://127.0.0.1:" + FreePorts.pick(),
                "--anteroom.gateway.cookie-secure=false",
                "--server.port=0",
                "--management.server.port=" + FreePorts.pick());
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  <T> T bean(String name, Class<T> type) {
    return context.getBean(name, type);
  }

  @Override
  public void close() {
    context.close();
  }
}
