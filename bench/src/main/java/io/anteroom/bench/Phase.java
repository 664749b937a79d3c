package io.anteroom.bench;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One phase of a round, measured in short slices by the server's own accounting: {@code CONFIG
 * RESETSTAT}, the slice, {@code INFO commandstats} (calls and µs per command, commands run from
 * scripts included, network and client time not), summed. A script's time includes its commands.
 */
final class Phase {

  private static final Pattern STAT =
      Pattern.compile("(?m)^cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");
  private static final String[] SCRIPTS = {"evalsha", "eval"};

  private final RedisClusterAsyncCommands<String, String> commands;

  /** Command → {calls, µs}, summed over the slices. */
  final Map<String, long[]> stats = new TreeMap<>();

  /** Script µs of each slice, in order; for admission one slice is one call. */
  final List<Long> sliceScriptUsec = new ArrayList<>();

  /** Visitors enqueued or admitted: the divisor of every per-operation figure. */
  long operations;

  Phase(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
  }

  /** Runs one slice, which returns its operations, and adds what the server says it cost. */
  void measure(LongSupplier slice) {
    Await.result(commands.configResetstat());
    operations += slice.getAsLong();
    Matcher stat = STAT.matcher(Await.result(commands.info("commandstats")));
    long script = 0;
    while (stat.find()) {
      long[] cost = {Long.parseLong(stat.group(2)), Long.parseLong(stat.group(3))};
      stats.merge(stat.group(1), cost, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      script += Set.of(SCRIPTS).contains(stat.group(1)) ? cost[1] : 0;
    }
    sliceScriptUsec.add(script);
  }

  long usec(String... names) {
    long total = 0;
    for (String name : names) {
      total += stats.getOrDefault(name, new long[2])[1];
    }
    return total;
  }

  long calls(String name) {
    return stats.getOrDefault(name, new long[2])[0];
  }

  /** Server µs of these commands per operation. */
  double usecPer(String... names) {
    return (double) usec(names) / operations;
  }

  long scriptUsec() {
    return usec(SCRIPTS);
  }

  double scriptUsecPer() {
    return usecPer(SCRIPTS);
  }

  /** Every command but the scripts and the benchmark's own INFO and CONFIG, sorted by name. */
  Map<String, long[]> dataCommands() {
    Map<String, long[]> data = new TreeMap<>(stats);
    data.keySet().removeIf(c -> c.equals("info") || c.startsWith("config") || c.startsWith("eval"));
    return data;
  }

  /** Data commands per operation; for a script phase, the {@code redis.call}s it made. */
  double dataCallsPer() {
    return (double) dataCommands().values().stream().mapToLong(s -> s[0]).sum() / operations;
  }

  private long dataUsec() {
    return dataCommands().values().stream().mapToLong(s -> s[1]).sum();
  }

  /** Script time not spent in the commands the script ran: Lua itself and the EVALSHA call. */
  double scriptOverheadPer() {
    return (double) (scriptUsec() - dataUsec()) / operations;
  }

  /** µs per operation: the scripts' when there are any, else the commands'. */
  double totalPer() {
    return (double) (scriptUsec() > 0 ? scriptUsec() : dataUsec()) / operations;
  }

  long longestSliceUsec() {
    return sliceScriptUsec.stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** Which slice, counted from 0, took longest. */
  int longestSliceIndex() {
    return sliceScriptUsec.indexOf(longestSliceUsec());
  }

  double medianSliceUsec() {
    return Spread.of(sliceScriptUsec, Long::doubleValue).median();
  }
}
