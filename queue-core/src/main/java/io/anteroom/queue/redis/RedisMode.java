package io.anteroom.queue.redis;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * How the shared connection reaches Redis: one server (directly or through Sentinel) or a Cluster.
 * Implementations own their client and connection; the {@link RedisConnector} owns the resources
 * they share.
 */
interface RedisMode {

  /** Async commands of the shared connection; thread-safe. */
  RedisClusterAsyncCommands<String, String> commands();

  /** A new connection for subscriptions; the caller closes it. */
  StatefulRedisPubSubConnection<String, String> connectPubSub();

  /** Closes the shared connection and shuts the client down. */
  void close();
}
