package io.anteroom.testing.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A real Sentinel setup for tests: a primary, one replica and three Sentinels (quorum two), five
 * redis-server processes on free loopback ports. The Sentinels call the primary down after one
 * second without an answer, so a failover takes a few seconds. A former primary that is still up
 * after a failover is turned into a replica about ten seconds after the switch. {@link #start()}
 * returns once every Sentinel knows the replica and the other Sentinels, so a failover can be voted
 * at once.
 *
 * <p>Callers must {@link #close()} it; like every {@link RedisServer}, its processes are also
 * closed by a shutdown hook when the JVM exits.
 */
public final class RedisSentinelGroup implements AutoCloseable {

  /** The name the Sentinels know the primary by. */
  public static final String MASTER_NAME = "anteroom";

  private static final int SENTINELS = 3;
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

  private final List<RedisServer> servers;
  private final List<RedisServer> sentinels;

  private RedisSentinelGroup(List<RedisServer> servers, List<RedisServer> sentinels) {
    this.servers = List.copyOf(servers);
    this.sentinels = List.copyOf(sentinels);
  }

  /** Starts the primary, its replica and the Sentinels; the caller must close the group. */
  public static RedisSentinelGroup start() {
    List<RedisServer> servers = new ArrayList<>();
    List<RedisServer> sentinels = new ArrayList<>();
    try {
      RedisServer primary = RedisServer.start();
      servers.add(primary);
      String primaryPort = Integer.toString(primary.port());
      servers.add(RedisServer.builder().args("--replicaof", primary.host(), primaryPort).start());
      for (int i = 0; i < SENTINELS; i++) {
        sentinels.add(
            RedisServer.builder()
                .sentinel()
                .args("--sentinel", "monitor", MASTER_NAME, primary.host(), primaryPort, "2")
                .args("--sentinel", "down-after-milliseconds", MASTER_NAME, "1000")
                .args("--sentinel", "failover-timeout", MASTER_NAME, "5000")
                .start());
      }
      RedisSentinelGroup group = new RedisSentinelGroup(servers, sentinels);
      group.awaitReady();
      return group;
    } catch (RuntimeException e) {
      sentinels.forEach(RedisServer::close);
      servers.forEach(RedisServer::close);
      throw e;
    }
  }

  /** {@code redis-sentinel://…#anteroom}, the Lettuce URI of the group. */
  public String uri() {
    return "redis-sentinel://"
        + sentinels.stream().map(s -> s.host() + ":" + s.port()).collect(Collectors.joining(","))
        + "#"
        + MASTER_NAME;
  }

  /** The primary as the Sentinels name it now. */
  public RedisServer primary() {
    int port = primaryPort(sentinels.get(0));
    return servers.stream()
        .filter(s -> s.port() == port)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no server on port " + port));
  }

  /** The data servers, the first started as primary. */
  public List<RedisServer> servers() {
    return servers;
  }

  /** The three Sentinels. */
  public List<RedisServer> sentinels() {
    return sentinels;
  }

  /**
   * Returns once every Sentinel names a primary other than {@code former} and that server answers
   * as a primary.
   */
  public RedisServer awaitFailoverFrom(RedisServer former, Duration timeout) {
    Poll.until(
        "every Sentinel names a new primary instead of " + former,
        timeout,
        () -> sentinels.stream().allMatch(s -> primaryPort(s) != former.port()));
    RedisServer promoted = primary();
    Poll.until(
        promoted + " answers as primary",
        timeout,
        () -> promoted.command("ROLE").startsWith("master\n"));
    return promoted;
  }

  @Override
  public void close() {
    sentinels.forEach(RedisServer::close);
    servers.forEach(RedisServer::close);
  }

  private void awaitReady() {
    RedisServer replica = servers.get(1);
    Poll.until(
        "the replica is in sync",
        SETTLE_TIMEOUT,
        () -> replica.command("INFO", "replication").contains("master_link_status:up"));
    Poll.until(
        "every Sentinel knows the replica and the other Sentinels",
        SETTLE_TIMEOUT,
        () ->
            sentinels.stream()
                .allMatch(
                    s ->
                        s.command("SENTINEL", "REPLICAS", MASTER_NAME).contains("\nslave\n")
                            && count(s.command("SENTINEL", "SENTINELS", MASTER_NAME), "runid")
                                == SENTINELS - 1));
  }

  private static int primaryPort(RedisServer sentinel) {
    String[] address =
        sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
    return Integer.parseInt(address[1]);
  }

  private static int count(String text, String word) {
    return (int) text.lines().filter(word::equals).count();
  }
}
