package io.anteroom.bench;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The server's command stats over one measured phase.
 *
 * @param operations what the phase did, the divisor of every per-operation figure: visitors
 *     enqueued or admitted
 * @param stats {@code INFO commandstats} read at the end of the phase, reset at its start
 */
record PhaseResult(long operations, Map<String, CommandStat> stats) {

  /** Script commands: their time includes the commands the script runs. */
  static final Set<String> SCRIPT_COMMANDS = Set.of("evalsha", "eval");

  PhaseResult {
    stats = Map.copyOf(stats);
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
    return usecPer(SCRIPT_COMMANDS.toArray(String[]::new));
  }

  /**
   * The data commands of the phase, that is everything except scripts and the benchmark's own
   * bookkeeping ({@code INFO}, {@code CONFIG}), sorted by name.
   */
  Map<String, CommandStat> dataCommands() {
    Map<String, CommandStat> data = new TreeMap<>(stats);
    data.keySet().removeIf(c -> SCRIPT_COMMANDS.contains(c) || c.equals("info") || c.startsWith("config"));
    return data;
  }

  /** Script time not spent in the commands the script ran: Lua itself and the EVALSHA call. */
  double scriptOverheadPer() {
    long inner = dataCommands().values().stream().mapToLong(CommandStat::usec).sum();
    return (double) (usec(SCRIPT_COMMANDS.toArray(String[]::new)) - inner) / operations;
  }
}
