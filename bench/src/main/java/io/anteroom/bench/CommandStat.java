package io.anteroom.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code INFO commandstats}: how often a command ran and the server CPU time it took.
 *
 * @param calls calls since the last {@code CONFIG RESETSTAT}, including calls made from scripts
 * @param usec microseconds the server spent executing them
 */
record CommandStat(long calls, long usec) {

  private static final Pattern LINE =
      Pattern.compile("(?m)^cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)");

  CommandStat plus(CommandStat other) {
    return new CommandStat(calls + other.calls, usec + other.usec);
  }

  /** Parses an {@code INFO commandstats} reply into command name (lower case) to stat. */
  static Map<String, CommandStat> parse(String info) {
    Map<String, CommandStat> stats = new LinkedHashMap<>();
    Matcher line = LINE.matcher(info);
    while (line.find()) {
      stats.put(
          line.group(1),
          new CommandStat(Long.parseLong(line.group(2)), Long.parseLong(line.group(3))));
    }
    return stats;
  }
}
