package io.anteroom.queue.config;

import io.anteroom.queue.policy.Durations;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How to reach Redis.
 *
 * @param uri a Lettuce URI: {@code redis://host:port}, {@code rediss://…} for TLS, or {@code
 *     redis-sentinel://host:port,host:port#master}; default {@code redis://127.0.0.1:6379}
 * @param commandTimeout how long one command may take before it fails; default {@code 500ms}
 * @param connectTimeout how long connecting may take; default {@code 1s}
 * @param requestQueueSize most commands queued per connection before new ones are rejected; default
 *     10000
 */
public record RedisProperties(
    @DefaultValue("redis://127.0.0.1:6379") String uri,
    @DefaultValue("500ms") String commandTimeout,
    @DefaultValue("1s") String connectTimeout,
    @DefaultValue("10000") int requestQueueSize) {

  public RedisProperties {
    parse("anteroom.redis.command-timeout", commandTimeout);
    parse("anteroom.redis.connect-timeout", connectTimeout);
    if (requestQueueSize < 1) {
      throw new IllegalArgumentException(
          "anteroom.redis.request-queue-size: must be at least 1, was " + requestQueueSize);
    }
  }

  /** {@link #commandTimeout()} as a duration. */
  public Duration commandTimeoutDuration() {
    return Durations.parse(commandTimeout);
  }

  /** {@link #connectTimeout()} as a duration. */
  public Duration connectTimeoutDuration() {
    return Durations.parse(connectTimeout);
  }

  private static void parse(String property, String value) {
    try {
      Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
    }
  }
}
