package io.anteroom.testing.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A real Redis Cluster for tests: three primaries, each with one replica, six redis-server
 * processes on free loopback ports. It is formed over RESP ({@code CLUSTER MEET}, {@code ADDSLOTS},
 * {@code REPLICATE}), so it needs no redis-cli, and {@link #start()} returns once every node sees
 * the cluster {@code ok} and every replica is in sync.
 *
 * <p>Callers must {@link #close()} it; like every {@link RedisServer}, its nodes are also closed by
 * a shutdown hook when the JVM exits.
 */
public final class RedisCluster implements AutoCloseable {

  /** Slots of a Redis Cluster. */
  public static final int SLOTS = 16_384;

  private static final int PRIMARIES = 3;
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

  private final List<RedisServer> nodes;

  private RedisCluster(List<RedisServer> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /** Starts and forms a cluster of three primaries and three replicas; the caller must close it. */
  public static RedisCluster start() {
    List<RedisServer> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < 2 * PRIMARIES; i++) {
        nodes.add(
            RedisServer.builder()
                .arg("cluster-enabled", "yes")
                .arg("cluster-node-timeout", "5000")
                .arg("cluster-require-full-coverage", "yes")
                .start());
      }
      RedisCluster cluster = new RedisCluster(nodes);
      cluster.form();
      return cluster;
    } catch (RuntimeException e) {
      nodes.forEach(RedisServer::close);
      throw e;
    }
  }

  /** Every node, primaries first (as formed; a failover swaps roles). */
  public List<RedisServer> nodes() {
    return nodes;
  }

  /** {@code 127.0.0.1:PORT} of every node, comma-separated, for {@code cluster-nodes}. */
  public String seeds() {
    return nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
  }

  /** The slot of {@code key}, as the cluster computes it (hash tags included). */
  public int slotOf(String key) {
    return Integer.parseInt(nodes.get(0).command("CLUSTER", "KEYSLOT", key));
  }

  /** The node that is primary for {@code key}'s slot now, as a reachable node sees it. */
  public RedisServer primaryOf(String key) {
    int slot = slotOf(key);
    ClusterView.Node primary =
        view(firstRunning())
            .primaryOf(slot)
            .orElseThrow(() -> new IllegalStateException("no primary serves slot " + slot));
    return byPort(primary.port());
  }

  /** The replica of {@code primary}. */
  public RedisServer replicaOf(RedisServer primary) {
    ClusterView view = view(primary);
    String id = view.byPort(primary.port()).orElseThrow().id();
    return view.nodes().stream()
        .filter(n -> id.equals(n.primaryId()))
        .findFirst()
        .map(n -> byPort(n.port()))
        .orElseThrow(() -> new IllegalStateException(primary + " has no replica"));
  }

  /**
   * Promotes {@code replica} with a coordinated {@code CLUSTER FAILOVER}: its primary stops taking
   * writes until the replica has caught up, so nothing acknowledged is lost. Returns once every
   * node sees the replica as primary and the old primary as its replica, in sync.
   */
  public void failover(RedisServer replica) {
    int port = replica.port();
    replica.command("CLUSTER", "FAILOVER");
    Poll.until(
        "every node sees " + replica + " as primary",
        SETTLE_TIMEOUT,
        () -> nodes.stream().allMatch(n -> view(n).byPort(port).orElseThrow().primary()));
    awaitSettled();
  }

  @Override
  public void close() {
    nodes.forEach(RedisServer::close);
  }

  private void form() {
    RedisServer first = nodes.get(0);
    for (RedisServer node : nodes.subList(1, nodes.size())) {
      first.command("CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
    }
    for (int i = 0; i < PRIMARIES; i++) {
      int from = SLOTS * i / PRIMARIES;
      int to = SLOTS * (i + 1) / PRIMARIES;
      List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
      IntStream.range(from, to).mapToObj(Integer::toString).forEach(command::add);
      nodes.get(i).command(command.toArray(String[]::new));
    }
    Poll.until(
        "every node knows the other five",
        SETTLE_TIMEOUT,
        () -> nodes.stream().allMatch(n -> view(n).knowsAll(nodes.size())));
    for (int i = 0; i < PRIMARIES; i++) {
      String primaryId = nodes.get(i).command("CLUSTER", "MYID");
      nodes.get(PRIMARIES + i).command("CLUSTER", "REPLICATE", primaryId);
    }
    awaitSettled();
  }

  private void awaitSettled() {
    Poll.until(
        "cluster ok on every node, every replica in sync",
        SETTLE_TIMEOUT,
        () -> nodes.stream().allMatch(RedisCluster::settled));
  }

  private static boolean settled(RedisServer node) {
    if (!node.command("CLUSTER", "INFO").contains("cluster_state:ok")) {
      return false;
    }
    ClusterView view = view(node);
    if (view.nodes().stream().filter(ClusterView.Node::primary).count() != PRIMARIES) {
      return false;
    }
    String replication = node.command("INFO", "replication");
    return replication.contains("role:master")
        ? replication.contains("connected_slaves:1")
        : replication.contains("master_link_status:up");
  }

  private static ClusterView view(RedisServer node) {
    return ClusterView.of(node.command("CLUSTER", "NODES"));
  }

  private RedisServer firstRunning() {
    return nodes.stream()
        .filter(n -> n.isRunning() && !n.isPaused())
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no node of the cluster is running"));
  }

  private RedisServer byPort(int port) {
    return nodes.stream()
        .filter(n -> n.port() == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no node on port " + port));
  }
}
