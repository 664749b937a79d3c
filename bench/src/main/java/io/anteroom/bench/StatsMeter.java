package io.anteroom.bench;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Adds up the server's own accounting over many short measured slices of one phase: {@code INFO
 * commandstats} counts calls and CPU microseconds per command, including commands run from scripts,
 * so it measures server work without network time. Slices of the two sides take turns, so a stretch
 * of machine noise (CPU steal on a shared host) falls on both sides alike instead of on whichever
 * phase ran at that moment.
 */
final class StatsMeter {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final Map<String, CommandStat> totals = new TreeMap<>();
  private final List<Long> sliceScriptUsec = new ArrayList<>();
  private long operations;

  StatsMeter(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
  }

  /** Resets the server's stats, runs one slice, which returns its operations, and adds its cost. */
  void measure(LongSupplier slice) {
    Await.result(commands.configResetstat());
    long done = slice.getAsLong();
    Map<String, CommandStat> cost = CommandStat.parse(Await.result(commands.info("commandstats")));
    cost.forEach((command, stat) -> totals.merge(command, stat, CommandStat::plus));
    sliceScriptUsec.add(new PhaseResult(done, cost, List.of()).usec(PhaseResult.SCRIPTS));
    operations += done;
  }

  long operations() {
    return operations;
  }

  PhaseResult result() {
    return new PhaseResult(operations, totals, sliceScriptUsec);
  }
}
