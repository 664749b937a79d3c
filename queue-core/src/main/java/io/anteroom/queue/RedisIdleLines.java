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
 * its queue is on: listed in {@link QueueKeys#active()} (asked once for all of them), or with keys
 * the worker keeps without a time to live. Each call is one round trip, plus, when lines are beyond
 * the bound, one to ask which are on and one per line deleted.
 */
public final class RedisIdleLines implements IdleLines {

  /** Lines deleted at once after one report; the calls are pipelined on the connection. */
  private static final int DELETING_AT_ONCE = 256;

  private final RedisClusterAsyncCommands<String, String> commands;
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
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
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
        .flatMapMany(beyond -> off(room, beyond))
        .flatMap(this::forget, DELETING_AT_ONCE)
        .filter(deleted -> deleted)
        .count();
  }

  /** Of the lines beyond the bound, those whose queue is not in the set of active queues. */
  private Flux<QueueId> off(String room, List<Object> beyond) {
    if (beyond.isEmpty()) {
      return Flux.empty();
    }
    String[] fields =
        beyond.stream()
            .map(item -> QueueId.named(room, item.toString()).toString())
            .toArray(String[]::new);
    return Mono.fromCompletionStage(() -> commands.hmget(keys.active(), fields))
        .flatMapMany(Flux::fromIterable)
        .filter(field -> !field.hasValue())
        .map(field -> QueueId.parse(field.getKey()));
  }

  private Mono<Boolean> forget(QueueId queue) {
    return scripts
        .<Long>run(
            QueueScripts.FORGET,
            ScriptOutputType.INTEGER,
            keys.scriptKeys(queue),
            Long.toString(clock.millis()))
        .map(deleted -> deleted == 1L);
  }
}
