package io.anteroom.queue.redis;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How to reach Redis: one server or a Sentinel group through {@link #uri()}, or a Redis Cluster
 * through {@link #clusterNodes()}.
 *
 * @param uri a Lettuce URI: {@code redis://host:port}, {@code rediss://…} for TLS, or {@code
 *     redis-sentinel://host:port,host:port#master}; not used when {@code cluster-nodes} is set;
 *     default {@code redis://127.0.0.1:6379}
 * @param commandTimeout how long one command may take before it fails; default {@code 500ms}
 * @param connectTimeout how long connecting may take; default {@code 1s}
 * @param requestQueueSize most commands queued per connection before new ones are rejected; default
 *     10000
 * @param clusterNodes some nodes of a Redis Cluster, each {@code host:port} or a {@code redis://}
 *     or {@code rediss://} URI (for a password or TLS); set, it switches to Cluster mode; default
 *     none
 * @param clusterRefresh how often the Cluster's slot map is read again, besides the reads that
 *     redirects and reconnects trigger at once; default {@code 30s}
 */
public record RedisProperties(
    @DefaultValue("redis://127.0.0.1:6379") String uri,
    @DefaultValue("500ms") Duration commandTimeout,
    @DefaultValue("1s") Duration connectTimeout,
    @DefaultValue("10000") int requestQueueSize,
    List<String> clusterNodes,
    @DefaultValue("30s") Duration clusterRefresh) {

  private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.\\-]+:\\d{1,5}");

  /** The default of {@code cluster-refresh}. */
  private static final Duration CLUSTER_REFRESH = Duration.ofSeconds(30);

  @ConstructorBinding
  public RedisProperties {
    if (clusterRefresh.isZero()) {
      throw new IllegalArgumentException("anteroom.redis.cluster-refresh: must be more than 0");
    }
    if (requestQueueSize < 1) {
      throw new IllegalArgumentException(
          "anteroom.redis.request-queue-size: must be at least 1, was " + requestQueueSize);
    }
    clusterNodes =
        clusterNodes == null
            ? List.of()
            : clusterNodes.stream().map(String::trim).filter(n -> !n.isEmpty()).toList();
    clusterNodes.forEach(RedisProperties::checkNode);
  }

  /** One server or a Sentinel group at {@code uri}, with the default Cluster settings unused. */
  public RedisProperties(
      String uri, Duration commandTimeout, Duration connectTimeout, int requestQueueSize) {
    this(uri, commandTimeout, connectTimeout, requestQueueSize, List.of(), CLUSTER_REFRESH);
  }

  /** A Redis Cluster reached first through {@code nodes}. */
  public static RedisProperties cluster(
      List<String> nodes, Duration commandTimeout, Duration connectTimeout, int requestQueueSize) {
    return new RedisProperties(
        "redis://127.0.0.1:6379",
        commandTimeout,
        connectTimeout,
        requestQueueSize,
        nodes,
        CLUSTER_REFRESH);
  }

  /** Whether {@link #clusterNodes()} names a Cluster to connect to instead of {@link #uri()}. */
  public boolean clustered() {
    return !clusterNodes.isEmpty();
  }

  /** {@code clusterNodes} as URIs: a bare {@code host:port} becomes {@code redis://host:port}. */
  public List<String> clusterNodeUris() {
    return clusterNodes.stream().map(n -> n.contains("://") ? n : "redis://" + n).toList();
  }

  private static void checkNode(String node) {
    boolean valid;
    if (node.contains("://")) {
      URI parsed = parseUri(node);
      valid =
          parsed != null
              && ("redis".equals(parsed.getScheme()) || "rediss".equals(parsed.getScheme()))
              && parsed.getHost() != null;
    } else {
      valid = HOST_PORT.matcher(node).matches();
    }
    if (!valid) {
      throw new IllegalArgumentException(
          "anteroom.redis.cluster-nodes: each node must be host:port or a redis:// or rediss:// URI,"
              + " was '"
              + node
              + "'");
    }
  }

  private static URI parseUri(String text) {
    try {
      return URI.create(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
