package io.anteroom.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Adds up the server's command stats over many short measured slices of one phase. Slices of the
 * two sides take turns, so a stretch of machine noise (CPU steal on a shared host) falls on both
 * sides alike instead of on whichever phase ran at that moment.
 */
final class StatsMeter {

  private final ServerStats stats;
  private final Map<String, CommandStat> totals = new TreeMap<>();
  private final List<Long> sliceScriptUsec = new ArrayList<>();
  private long operations;

  StatsMeter(ServerStats stats) {
    this.stats = stats;
  }

  /**
   * Resets the server's stats, runs one slice and adds what it cost.
   *
   * @param slice does the work and returns how many operations it did
   * @return the slice's operations
   */
  long measure(LongSupplier slice) {
    stats.reset();
    long done = slice.getAsLong();
    Map<String, CommandStat> cost = stats.read();
    cost.forEach((command, stat) -> totals.merge(command, stat, CommandStat::plus));
    sliceScriptUsec.add(new PhaseResult(done, cost, List.of()).usec(PhaseResult.SCRIPTS));
    operations += done;
    return done;
  }

  long operations() {
    return operations;
  }

  PhaseResult result() {
    return new PhaseResult(operations, totals, sliceScriptUsec);
  }
}
