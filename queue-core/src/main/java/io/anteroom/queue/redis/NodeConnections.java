package io.anteroom.queue.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.Disposable;

/**
 * Keeps a connection open to every node of the Cluster, replicas included. Lettuce opens node
 * connections lazily and, with commands rejected while disconnected, rejects a command whose node
 * connection is still being opened: without this, the first command to each primary, and the first
 * to a replica just promoted by a failover, would fail although the node is up.
 */
final class NodeConnections implements AutoCloseable {

  private final StatefulRedisClusterConnection<String, String> connection;
  private final Disposable topologyChanges;

  private NodeConnections(
      StatefulRedisClusterConnection<String, String> connection, ClientResources resources) {
    this.connection = connection;
    this.topologyChanges =
        resources
            .eventBus()
            .get()
            .filter(ClusterTopologyChangedEvent.class::isInstance)
            .subscribe(changed -> openAll());
  }

  /**
   * Opens a connection to every node now, waiting at most {@code timeout} (nodes that are down are
   * left to later), and again whenever the slot map changes.
   */
  static NodeConnections open(
      StatefulRedisClusterConnection<String, String> connection,
      ClientResources resources,
      Duration timeout) {
    NodeConnections nodes = new NodeConnections(connection, resources);
    try {
      nodes.openAll().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException someNodeNotReachable) {
      // Commands to that node fail fast until its connection is up; the others work.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return nodes;
  }

  private CompletableFuture<Void> openAll() {
    return CompletableFuture.allOf(
        connection.getPartitions().stream()
            .map(RedisClusterNode::getUri)
            .map(this::open)
            .toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<?> open(RedisURI node) {
    return connection.getConnectionAsync(node.getHost(), node.getPort());
  }

  @Override
  public void close() {
    topologyChanges.dispose();
  }
}
