package io.anteroom.queue.redis;

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
 * {@code redis-sentinel://}: each (re)connect asks the Sentinels again, and a {@link
 * SentinelFollower} reconnects as soon as they announce a new primary.
 */
final class StandaloneMode implements RedisMode {

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final Runnable unfollow;

  private StandaloneMode(
      RedisClient client, StatefulRedisConnection<String, String> connection, Runnable unfollow) {
    this.client = client;
    this.connection = connection;
    this.unfollow = unfollow;
  }

  static StandaloneMode connect(ClientResources resources, RedisProperties properties) {
    RedisURI uri = RedisURI.create(properties.uri());
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(ClientHardening.apply(ClientOptions.builder(), properties).build());
    try {
      StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8);
      Runnable unfollow =
          uri.getSentinels().isEmpty()
              ? () -> {}
              : SentinelFollower.follow(client, uri, connection)::close;
      return new StandaloneMode(client, connection, unfollow);
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
    unfollow.run();
    connection.close();
    client.shutdown();
  }
}
