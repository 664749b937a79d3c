package io.anteroom.queue;

import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServer;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A connector as the apps build it, plus a separate plain connection for tests to look at and
 * arrange Redis state directly.
 *
 * <p>As a JUnit extension it also owns the redis-server, one per test class:
 *
 * <pre>{@code
 * @RegisterExtension static RedisFixture fixture = RedisFixture.create();
 * }</pre>
 *
 * <p>The server starts and both connections open before all tests (nested classes included), the
 * server is brought back and emptied before each test as {@link RedisServerExtension} does, and
 * everything is closed after all tests. {@link #connect} gives more connections to the same server.
 */
public final class RedisFixture
    implements BeforeAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        AfterAllCallback,
        AutoCloseable {

  private final RedisServerExtension redis;
  private String uri;
  private RedisConnector connector;
  private RedisClient client;
  private StatefulRedisConnection<String, String> direct;

  // Counts the test classes, outer and nested, whose BeforeAll ran.
  private int classScopes;

  private RedisFixture(RedisServerExtension redis) {
    this.redis = redis;
  }

  /** A fixture for a test class, on a redis-server of its own; register it on a static field. */
  public static RedisFixture create() {
    return new RedisFixture(RedisServerExtension.create());
  }

  /** Connects to the Redis at {@code uri}; the caller closes it. */
  public static RedisFixture connect(String uri) {
    RedisFixture fixture = new RedisFixture(null);
    fixture.open(uri);
    return fixture;
  }

  /** The connector the code under test uses. */
  public RedisConnector connector() {
    return connector;
  }

  /** Direct commands, for arranging and asserting Redis state. */
  public RedisCommands<String, String> sync() {
    return direct.sync();
  }

  /** The address of the server, for more connections. */
  public String uri() {
    return uri;
  }

  /** The server this fixture started, to stop, kill or pause it. */
  public RedisServer server() {
    if (redis == null) {
      throw new IllegalStateException("this fixture only connects to " + uri);
    }
    return redis.server();
  }

  /**
   * Restarts the server (a non-persistent one comes back empty, under a new run id) and returns
   * once both connections answer again.
   */
  public void restart() {
    server().restart();
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .ignoreExceptions()
        .until(
            () ->
                "PONG".equals(direct.sync().ping())
                    && "PONG".equals(connector.commands().ping().get(1, TimeUnit.SECONDS)));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    redis.beforeAll(context);
    if (classScopes++ == 0) {
      open(redis.uri());
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    redis.beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    redis.afterEach(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (--classScopes == 0) {
      close();
    }
    redis.afterAll(context);
  }

  private void open(String uri) {
    this.uri = uri;
    this.connector =
        RedisConnector.connect(
            new RedisProperties(uri, Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000));
    this.client = RedisClient.create(uri);
    this.direct = client.connect();
  }

  /** Closes both connections; as an extension, done after all tests. */
  @Override
  public void close() {
    direct.close();
    client.shutdown();
    connector.close();
  }
}
