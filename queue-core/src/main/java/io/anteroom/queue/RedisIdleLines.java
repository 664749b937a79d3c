package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link IdleLines} in the sorted set {@link QueueKeys#idle(String)} of each room, by time of the
 * last write ({@code idle.lua}); a line beyond the bound is deleted with {@code forget.lua} unless
 * its queue is on. Each call is one round trip, plus one per line deleted.
 */
public final class RedisIdleLines implements IdleLines {

  /** Lines deleted at once after one report; the calls are pipelined on the connection. */
  private static final int DELETING_AT_ONCE = 256;

  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final int perRoom;

  /**
   * @param perRoom most lines of one room kept while their queues are off
   */
  public RedisIdleLines(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      int perRoom) {
    if (perRoom < 1) {
      throw new IllegalArgumentException("perRoom must be at least 1, was " + perRoom);
    }
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
    this.clock = clock;
    this.perRoom = perRoom;
  }

  @Override
  public Mono<Long> written(String room, Collection<String> items, Duration keep) {
    if (items.isEmpty()) {
      return Mono.just(0L);
    }
    String[] args = new String[items.size() + 3];
    args[0] = Long.toString(clock.millis());
    args[1] = Integer.toString(perRoom);
    args[2] = Long.toString(keep.toMillis());
    int i = 3;
    for (String item : items) {
      args[i++] = item;
    }
    return scripts
        .<List<Object>>run(
            QueueScripts.IDLE, ScriptOutputType.MULTI, new String[] {keys.idle(room)}, args)
        .flatMapMany(Flux::fromIterable)
        .flatMap(item -> forget(QueueId.named(room, item.toString())), DELETING_AT_ONCE)
        .filter(deleted -> deleted)
        .count();
  }

  private Mono<Boolean> forget(QueueId queue) {
    return scripts
        .<Long>run(QueueScripts.FORGET, ScriptOutputType.INTEGER, keys.scriptKeys(queue))
        .map(deleted -> deleted == 1L);
  }
}
