package io.anteroom.bench;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The server's command stats over one measured phase of a round.
 *
 * @param operations what the phase did, the divisor of every per-operation figure: visitors
 *     enqueued or admitted
 * @param stats {@code INFO commandstats} summed over the phase's slices
 * @param sliceScriptUsec script microseconds of each measured slice, in order; for admission one
 *     slice is one call
 */
record PhaseResult(long operations, Map<String, CommandStat> stats, List<Long> sliceScriptUsec) {

  /** Script commands: their time includes the commands the script runs. */
  static final String[] SCRIPTS = {"evalsha", "eval"};

  private static final Set<String> NOT_DATA = Set.of("evalsha", "eval", "info");

  PhaseResult {
    stats = Map.copyOf(stats);
    sliceScriptUsec = List.copyOf(sliceScriptUsec);
  }

  long usec(String... commands) {
    long total = 0;
    for (String command : commands) {
      total += stats.getOrDefault(command, new CommandStat(0, 0)).usec();
    }
    return total;
  }

  long calls(String command) {
    return stats.getOrDefault(command, new CommandStat(0, 0)).calls();
  }

  /** Server microseconds of these commands per operation. */
  double usecPer(String... commands) {
    return (double) usec(commands) / operations;
  }

  /** Microseconds of the scripts per operation. */
  double scriptUsecPer() {
    return usecPer(SCRIPTS);
  }

  /**
   * The data commands of the phase: everything except scripts and the benchmark's own bookkeeping
   * ({@code INFO}, {@code CONFIG …}), sorted by name.
   */
  Map<String, CommandStat> dataCommands() {
    Map<String, CommandStat> data = new TreeMap<>(stats);
    data.keySet().removeIf(c -> NOT_DATA.contains(c) || c.startsWith("config"));
    return data;
  }

  /** Data commands per operation; for a script phase, the {@code redis.call}s it made. */
  double dataCallsPer() {
    return (double) dataCommands().values().stream().mapToLong(CommandStat::calls).sum()
        / operations;
  }

  /** Script time not spent in the commands the script ran: Lua itself and the EVALSHA call. */
  double scriptOverheadPer() {
    long inner = dataCommands().values().stream().mapToLong(CommandStat::usec).sum();
    return (double) (usec(SCRIPTS) - inner) / operations;
  }

  /** The slowest slice's script time; for admission, the longest single call. */
  long longestSliceUsec() {
    return sliceScriptUsec.stream().mapToLong(Long::longValue).max().orElse(0);
  }

  double medianSliceUsec() {
    return Spread.of(sliceScriptUsec, Long::doubleValue).median();
  }
}
