package io.anteroom.bench;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisCluster;
import io.anteroom.testing.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one hash tag per room costs on a Redis Cluster of three primaries: the same items' joins and
 * admissions as one room with room-wide limits, and as one room per item, and how each layout's
 * load falls on the primaries. See {@code bench/README.md}; {@code bench/room-cluster.sh} runs it.
 */
public final class RoomClusterBench {

  /** One layout's run in one round: what each primary did, in the order of the primaries. */
  record LayoutRun(String layout, List<ShardLoad> shards, double seconds) {

    long totalUsec() {
      return shards.stream().mapToLong(ShardLoad::scriptUsec).sum();
    }

    double totalCpu() {
      return shards.stream().mapToDouble(ShardLoad::cpuSeconds).sum();
    }

    ShardLoad busiest() {
      return shards.stream()
          .max((a, b) -> Long.compare(a.scriptUsec(), b.scriptUsec()))
          .orElseThrow();
    }
  }

  static final String ONE_ROOM = "one room";
  static final String ROOM_PER_ITEM = "room per item";

  private RoomClusterBench() {}

  public static void main(String[] args) throws IOException {
    String load = Run.loadAverage();
    int visitors = Run.number("visitors");
    int items = Run.number("items");
    int warmup = Run.number("warmup");
    List<LayoutRun> runs = new ArrayList<>();
    RoomClusterReport report;
    try (RedisCluster cluster = RedisCluster.start();
        RedisConnector redis =
            RedisConnector.connect(
                RedisProperties.cluster(
                    List.of(cluster.seeds().split(",")),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(2),
                    100_000))) {
      List<RedisServer> primaries = cluster.nodes().subList(0, 3);
      String version =
          primaries
              .get(0)
              .command("INFO", "server")
              .replaceAll("(?s).*redis_version:(\\S+).*", "$1");
      System.out.println("Redis Cluster " + version + ": " + cluster.seeds());
      ClusterLayouts layouts = new ClusterLayouts(redis.commands(), items, Run.number("batch"));
      for (int round = 1 - warmup; round <= Run.number("rounds"); round++) {
        List<String> people = QueueRedisBench.visitors(visitors, round);
        LayoutRun one;
        LayoutRun per;
        // Which layout runs first alternates between rounds.
        if (Math.floorMod(round, 2) == 0) {
          one = measure(primaries, ONE_ROOM, layouts::runOneRoom, people);
          per = measure(primaries, ROOM_PER_ITEM, layouts::runRoomPerItem, people);
        } else {
          per = measure(primaries, ROOM_PER_ITEM, layouts::runRoomPerItem, people);
          one = measure(primaries, ONE_ROOM, layouts::runOneRoom, people);
        }
        System.out.println(RoomClusterReport.roundLine(round, one, per, visitors));
        if (round >= 1) {
          runs.add(one);
          runs.add(per);
        }
      }
      report =
          new RoomClusterReport(
              runs,
              visitors,
              itemsPerPrimary(cluster, primaries, layouts.oneRoom(), layouts),
              itemsPerPrimary(cluster, primaries, layouts.roomPerItem(), layouts));
      String markdown = report.markdown(load, version, warmup);
      System.out.println("\n" + markdown);
      Path out = Path.of(Run.option("out"));
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.writeString(out, markdown);
      System.out.println("written to " + out.toAbsolutePath());
    }
  }

  /** Flushes the primaries, then runs one layout with the primaries' statistics reset. */
  private static LayoutRun measure(
      List<RedisServer> primaries, String layout, Consumer<List<String>> run, List<String> people) {
    primaries.forEach(RedisServer::flushAll);
    double[] cpu = ShardLoad.start(primaries);
    long start = System.nanoTime();
    run.accept(people);
    double seconds = (System.nanoTime() - start) / 1e9;
    return new LayoutRun(layout, ShardLoad.since(primaries, cpu), seconds);
  }

  /** How many of {@code queues} each primary serves, in the order of the primaries. */
  private static int[] itemsPerPrimary(
      RedisCluster cluster,
      List<RedisServer> primaries,
      List<QueueId> queues,
      ClusterLayouts layouts) {
    int[] count = new int[primaries.size()];
    for (QueueId queue : queues) {
      count[primaries.indexOf(cluster.primaryOf(layouts.slotKey(queue)))]++;
    }
    return count;
  }
}
