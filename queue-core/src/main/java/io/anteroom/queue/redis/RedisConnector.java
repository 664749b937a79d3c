package io.anteroom.queue.redis;

import io.anteroom.queue.config.RedisProperties;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
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
 * command), and the connection heals by itself when Redis comes back.
 */
public final class RedisConnector implements AutoCloseable {

  /** Reconnect attempts back off from 50 ms to at most 1 s, so recovery follows Redis closely. */
  private static final Delay RECONNECT_DELAY =
      Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS);

  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;

  private RedisConnector(
      ClientResources resources,
      RedisClient client,
      StatefulRedisConnection<String, String> connection) {
    this.resources = resources;
    this.client = client;
    this.connection = connection;
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
    RedisClient client = RedisClient.create(resources, RedisURI.create(properties.uri()));
    client.setOptions(options(properties));
    try {
      return new RedisConnector(resources, client, client.connect(StringCodec.UTF8));
    } catch (RuntimeException e) {
      client.shutdown();
      resources.shutdown();
      throw e;
    }
  }

  static ClientOptions options(RedisProperties properties) {
    return ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .requestQueueSize(properties.requestQueueSize())
        .timeoutOptions(TimeoutOptions.enabled(properties.commandTimeoutDuration()))
        .socketOptions(
            SocketOptions.builder()
                .connectTimeout(properties.connectTimeoutDuration())
                .keepAlive(true)
                .build())
        .build();
  }

  /** Async commands of the shared connection; thread-safe. */
  public RedisClusterAsyncCommands<String, String> commands() {
    return connection.async();
  }

  /** A new connection for subscriptions; the caller closes it. */
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    return client.connectPubSub(StringCodec.UTF8);
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
    resources.shutdown();
  }
}
