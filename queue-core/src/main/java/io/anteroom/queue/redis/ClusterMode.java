package io.anteroom.queue.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.util.List;

/**
 * A Redis Cluster reached first through the configured nodes. Each command goes to the primary of
 * its key's slot; the slot map is read again periodically and at once on a {@code MOVED} or {@code
 * ASK} redirect, a failed reconnect or an unknown node, so a failover or a reshard is followed
 * without a restart.
 */
final class ClusterMode implements RedisMode {

  /** Reconnect attempts to one node after which the slot map is read again. */
  private static final int RECONNECTS_BEFORE_REFRESH = 3;

  private final RedisClusterClient client;
  private final StatefulRedisClusterConnection<String, String> connection;
  private final NodeConnections nodes;

  private ClusterMode(
      RedisClusterClient client,
      StatefulRedisClusterConnection<String, String> connection,
      NodeConnections nodes) {
    this.client = client;
    this.connection = connection;
    this.nodes = nodes;
  }

  static ClusterMode connect(ClientResources resources, RedisProperties properties) {
    List<RedisURI> seeds = properties.clusterNodeUris().stream().map(RedisURI::create).toList();
    RedisClusterClient client = RedisClusterClient.create(resources, seeds);
    client.setOptions(options(properties));
    try {
      StatefulRedisClusterConnection<String, String> connection = client.connect(StringCodec.UTF8);
      return new ClusterMode(
          client,
          connection,
          NodeConnections.open(connection, resources, properties.connectTimeout()));
    } catch (RuntimeException e) {
      client.shutdown();
      throw e;
    }
  }

  static ClusterClientOptions options(RedisProperties properties) {
    ClusterTopologyRefreshOptions refresh =
        ClusterTopologyRefreshOptions.builder()
            .enablePeriodicRefresh(properties.clusterRefresh())
            .enableAllAdaptiveRefreshTriggers()
            .refreshTriggersReconnectAttempts(RECONNECTS_BEFORE_REFRESH)
            .build();
    ClusterClientOptions.Builder builder =
        ClusterClientOptions.builder().topologyRefreshOptions(refresh);
    ClientHardening.apply(builder, properties);
    return builder.build();
  }

  @Override
  public RedisClusterAsyncCommands<String, String> commands() {
    return connection.async();
  }

  /**
   * A subscription connection to one node: Cluster nodes pass every {@code PUBLISH} on to all
   * others, so subscribers hear messages published on any node.
   */
  @Override
  public StatefulRedisPubSubConnection<String, String> connectPubSub() {
    return client.connectPubSub(StringCodec.UTF8);
  }

  @Override
  public void close() {
    nodes.close();
    connection.close();
    client.shutdown();
  }
}
