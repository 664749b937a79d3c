package io.anteroom.queue;

import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.redis.RedisConnector;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;

/**
 * A connector as the apps build it, plus a separate plain connection for tests to look at and
 * arrange Redis state directly.
 */
public final class RedisFixture implements AutoCloseable {

  private final RedisConnector connector;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> direct;

  private RedisFixture(String uri) {
    this.connector =
        RedisConnector.connect(
            new RedisProperties(uri, Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000));
    this.client = RedisClient.create(uri);
    this.direct = client.connect();
  }

  /** Connects to the Redis at {@code uri}. */
  public static RedisFixture connect(String uri) {
    return new RedisFixture(uri);
  }

  /** The connector the code under test uses. */
  public RedisConnector connector() {
    return connector;
  }

  /** Direct commands, for arranging and asserting Redis state. */
  public RedisCommands<String, String> sync() {
    return direct.sync();
  }

  @Override
  public void close() {
    direct.close();
    client.shutdown();
    connector.close();
  }
}
