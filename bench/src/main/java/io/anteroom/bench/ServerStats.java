package io.anteroom.bench;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Map;

/**
 * Reads the server's own accounting: {@code INFO commandstats} counts calls and CPU microseconds
 * per command, including commands run from scripts, so it measures server work without network
 * time.
 */
final class ServerStats {

  private final RedisClusterAsyncCommands<String, String> commands;

  ServerStats(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
  }

  /** {@code CONFIG RESETSTAT}: starts a measured phase. */
  void reset() {
    Await.result(commands.configResetstat());
  }

  /** {@code INFO commandstats} since the last reset. */
  Map<String, CommandStat> read() {
    return CommandStat.parse(Await.result(commands.info("commandstats")));
  }

  /** {@code FLUSHALL}: every phase group starts on an empty server. Loaded scripts stay. */
  void flush() {
    Await.result(commands.flushall());
  }
}
