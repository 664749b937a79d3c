package io.anteroom.testing.redis;

import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives JUnit Jupiter tests a real, empty redis-server.
 *
 * <pre>{@code
 * @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
 * }</pre>
 *
 * <p>On a static field, one server serves the whole test class (nested classes included). Before
 * each test it is brought back if an earlier test killed, stopped or paused it, and emptied with
 * {@code FLUSHALL}; after all tests it is closed. On an instance field, each test gets its own
 * server, closed after the test.
 *
 * <p>Tests sharing a server must not run concurrently, and a test that changes server settings
 * (e.g. {@code CONFIG SET}) must undo them: only the data is reset between tests.
 */
public final class RedisServerExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  private final Consumer<RedisServer.Builder> customizer;
  private RedisServer server;

  // Counts the test classes, outer and nested, whose BeforeAll ran; zero means per-test servers.
  private int classScopes;

  private RedisServerExtension(Consumer<RedisServer.Builder> customizer) {
    this.customizer = customizer;
  }

  /** A non-persistent server with default settings. */
  public static RedisServerExtension create() {
    return create(builder -> {});
  }

  /** A server whose data survives kill and restart; see {@link RedisServer.Builder#persistent}. */
  public static RedisServerExtension persistent() {
    return create(builder -> builder.persistent(true));
  }

  /** A server configured by {@code customizer}, e.g. {@code b -> b.arg("maxmemory", "1mb")}. */
  public static RedisServerExtension create(Consumer<RedisServer.Builder> customizer) {
    return new RedisServerExtension(Objects.requireNonNull(customizer, "customizer"));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (classScopes++ == 0) {
      server = start();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (server == null) {
      server = start();
      return;
    }
    if (server.isPaused()) {
      server.resume();
    } else if (!server.isRunning()) {
      server.restart();
    }
    server.flushAll();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (classScopes == 0) {
      closeServer();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (--classScopes == 0) {
      closeServer();
    }
  }

  /**
   * The running server, for the full {@link RedisServer} API.
   *
   * @throws IllegalStateException outside a test or lifecycle method, when there is no server
   */
  public RedisServer server() {
    if (server == null) {
      throw new IllegalStateException(
          "no redis-server yet: it starts before all tests (static field) or each test");
    }
    return server;
  }

  /** Shorthand for {@code server().port()}. */
  public int port() {
    return server().port();
  }

  /** Shorthand for {@code server().host()}. */
  public String host() {
    return server().host();
  }

  /** Shorthand for {@code server().uri()}. */
  public String uri() {
    return server().uri();
  }

  private RedisServer start() {
    RedisServer.Builder builder = RedisServer.builder();
    customizer.accept(builder);
    return builder.start();
  }

  private void closeServer() {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
