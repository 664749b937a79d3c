package io.anteroom.bench.micro;

import io.anteroom.gateway.GatewayApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** The shipped configuration, found from the working directory (the repository or bench/). */
  static final String CONFIG_PROPERTY = "bench.micro.config";

  private final ConfigurableApplicationContext context;

  OfflineGateway() {
    // The bench module logs with slf4j-simple; Boot must not insist on its own logging system.
    System.setProperty("org.springframework.boot.logging.LoggingSystem", "none");
    this.context =
        new SpringApplicationBuilder(GatewayApplication.class)
            .run(
                "--ANTEROOM_CONFIG=" + config(),
                "--anteroom.tokens.keys.main="
                    + java.util.Base64.getEncoder().encodeToString(TokenBenchmarks.KEY),
                "--anteroom.redis.uri=redis://127.0.0.1:" + freePort(),
                "--anteroom.gateway.cookie-secure=false",
                "--server.port=0",
                "--management.server.port=" + freePort());
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  <T> T bean(String name, Class<T> type) {
    return context.getBean(name, type);
  }

  private static String config() {
    String configured = System.getProperty(CONFIG_PROPERTY);
    if (configured != null) {
      return configured;
    }
    for (Path candidate :
        new Path[] {Path.of("config/anteroom.yml"), Path.of("../config/anteroom.yml")}) {
      if (Files.isRegularFile(candidate)) {
        return candidate.toAbsolutePath().toString();
      }
    }
    throw new IllegalStateException(
        "config/anteroom.yml not found; run from the repository or set -D" + CONFIG_PROPERTY);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    context.close();
  }
}
