package io.anteroom.testing.redis;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closes servers still open when the JVM exits, so a test run that never reached {@code close()}
 * leaves no redis-server behind. One shutdown hook serves every server. A JVM killed with SIGKILL
 * runs no hooks; its servers outlive it.
 */
final class OrphanReaper {

  private static final Set<RedisServer> open = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(OrphanReaper::closeAll, "redis-orphan-reaper"));
  }

  private OrphanReaper() {}

  static void track(RedisServer server) {
    open.add(server);
  }

  static void untrack(RedisServer server) {
    open.remove(server);
  }

  private static void closeAll() {
    for (RedisServer server : List.copyOf(open)) {
      try {
        server.close();
      } catch (RuntimeException ignored) {
        // The JVM is exiting; the next server still deserves its chance.
      }
    }
  }
}
