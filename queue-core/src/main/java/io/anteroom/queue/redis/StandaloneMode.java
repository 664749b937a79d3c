package io.anteroom.queue.redis;

import io.anteroom.queue.config.RedisProperties;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;

/**
 * One server at {@code redis://} or {@code rediss://}, or the primary a Sentinel group names at
 * {@code redis-sentinel://}: each (re)connect asks the Sentinels again, so the connection follows a
 * failover by itself.
 */
final class StandaloneMode implements RedisMode {

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;

  private StandaloneMode(RedisClient client, StatefulRedisConnection<String, String> connection) {
    this.client = client;
    this.connection = connection;
  }

  static StandaloneMode connect(ClientResources resources, RedisProperties properties) {
    RedisClient client = RedisClient.create(resources, RedisURI.create(properties.uri()));
    client.setOptions(ClientHardening.apply(ClientOptions.builder(), properties).build());
    try {
      return new StandaloneMode(client, client.connect(StringCodec.UTF8));
    } catch (RuntimeException e) {
      client.shutdown();
      throw e;
    }
  }

  @Override
  public RedisClusterAsyncCommands<String, String> commands() {
    return connection.async();
  }

  @Override
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    return client.connectPubSub(StringCodec.UTF8);
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }
}
