package io.anteroom.queue.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.metrics.MicrometerCommandLatencyRecorder;
import io.lettuce.core.metrics.MicrometerOptions;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One shared Lettuce connection, set up for a waiting room's hot path: commands fail fast instead
 * of piling up while Redis is away (rejected while disconnected, bounded queue, a timeout on each
 * command), and the connection heals by itself when Redis comes back. It reaches one server, the
 * primary of a Sentinel group, or a Redis Cluster, as {@link RedisProperties} says; callers see the
 * same commands in every mode.
 */
public final class RedisConnector implements AutoCloseable {

  /** Reconnect attempts back off from 50 ms to at most 1 s, so recovery follows Redis closely. */
  private static final Delay RECONNECT_DELAY =
      Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS);

  private final ClientResources resources;
  private final RedisMode mode;

  private RedisConnector(ClientResources resources, RedisMode mode) {
    this.resources = resources;
    this.mode = mode;
  }

  /**
   * Connects to Redis.
   *
   * @throws io.lettuce.core.RedisConnectionException when Redis cannot be reached now; callers that
   *     must start without Redis retry later
   */
  public static RedisConnector connect(RedisProperties properties) {
    return connect(properties, DefaultClientResources.builder());
  }

  /**
   * Connects to Redis and records each command's latency in {@code meters}: timers {@code
   * lettuce.command.completion} and {@code lettuce.command.firstresponse}, tagged by command type
   * and server address (a handful of series), with histogram buckets from 100 µs to 5 s.
   */
  public static RedisConnector connect(RedisProperties properties, MeterRegistry meters) {
    MicrometerOptions options =
        MicrometerOptions.builder()
            .enable()
            .histogram(true)
            .localDistinction(false)
            .minLatency(Duration.ofNanos(100_000))
            .maxLatency(Duration.ofSeconds(5))
            .build();
    return connect(
        properties,
        DefaultClientResources.builder()
            .commandLatencyRecorder(new MicrometerCommandLatencyRecorder(meters, options)));
  }

  private static RedisConnector connect(
      RedisProperties properties, DefaultClientResources.Builder builder) {
    ClientResources resources = builder.reconnectDelay(RECONNECT_DELAY).build();
    try {
      RedisMode mode =
          properties.clustered()
              ? ClusterMode.connect(resources, properties)
              : StandaloneMode.connect(resources, properties);
      return new RedisConnector(resources, mode);
    } catch (RuntimeException e) {
      resources.shutdown();
      throw e;
    }
  }

  /** Async commands of the shared connection; thread-safe. */
  public RedisClusterAsyncCommands<String, String> commands() {
    return mode.commands();
  }

  /**
   * A new connection for subscriptions; the caller closes it. In Cluster mode it subscribes on one
   * node and still hears messages published on any node.
   */
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    return mode.connectPubSub();
  }

  @Override
  public void close() {
    mode.close();
    resources.shutdown();
  }
}
