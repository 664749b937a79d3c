package io.anteroom.bench;

import io.anteroom.testing.redis.RedisServer;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * What one Cluster primary did over a stretch: its script calls and their server time ({@code INFO
 * commandstats}, reset at the start) and the CPU its process used ({@code INFO cpu}, user + system,
 * replication to its replica and the cluster bus included).
 *
 * @param port the primary's port
 * @param scriptCalls EVALSHA and EVAL calls
 * @param scriptUsec their server time, the commands they ran included
 * @param cpuSeconds CPU the redis-server process used
 */
record ShardLoad(int port, long scriptCalls, long scriptUsec, double cpuSeconds) {

  private static final Pattern SCRIPT =
      Pattern.compile("(?m)^cmdstat_(?:evalsha|eval):calls=(\\d+),usec=(\\d+)");
  private static final Pattern CPU = Pattern.compile("(?m)^used_cpu_(?:sys|user):([0-9.]+)");

  /** Resets the primaries' command statistics; returns their CPU seconds so far, in order. */
  static double[] start(List<RedisServer> primaries) {
    double[] cpu = new double[primaries.size()];
    for (int i = 0; i < cpu.length; i++) {
      primaries.get(i).command("CONFIG", "RESETSTAT");
      cpu[i] = cpuSeconds(primaries.get(i));
    }
    return cpu;
  }

  /** What each primary did since {@link #start}, which returned {@code cpuAtStart}. */
  static List<ShardLoad> since(List<RedisServer> primaries, double[] cpuAtStart) {
    return IntStream.range(0, primaries.size())
        .mapToObj(i -> of(primaries.get(i), cpuAtStart[i]))
        .toList();
  }

  private static ShardLoad of(RedisServer primary, double cpuAtStart) {
    Matcher stat = SCRIPT.matcher(primary.command("INFO", "commandstats"));
    long calls = 0;
    long usec = 0;
    while (stat.find()) {
      calls += Long.parseLong(stat.group(1));
      usec += Long.parseLong(stat.group(2));
    }
    return new ShardLoad(primary.port(), calls, usec, cpuSeconds(primary) - cpuAtStart);
  }

  private static double cpuSeconds(RedisServer node) {
    Matcher cpu = CPU.matcher(node.command("INFO", "cpu"));
    double seconds = 0;
    while (cpu.find()) {
      seconds += Double.parseDouble(cpu.group(1));
    }
    return seconds;
  }
}
