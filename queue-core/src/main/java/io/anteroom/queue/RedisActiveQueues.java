package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/** {@link ActiveQueues} in the hash {@link QueueKeys#active()}: one key, one command per change. */
public final class RedisActiveQueues implements ActiveQueues {

  private static final Logger log = LoggerFactory.getLogger(RedisActiveQueues.class);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;

  /** The value of a room's field while the room is at its limits. */
  private static final String FULL = "full";

  public RedisActiveQueues(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
  }

  @Override
  public Mono<Boolean> activate(QueueId queue, Activation cause) {
    String field = queue.toString();
    Mono<Boolean> change =
        cause == Activation.AUTO
            ? Mono.fromCompletionStage(() -> commands.hsetnx(keys.active(), field, cause.value()))
            : Mono.fromCompletionStage(() -> commands.hset(keys.active(), field, cause.value()));
    return change.flatMap(changed -> announce(queue, changed));
  }

  @Override
  public Mono<Boolean> deactivate(QueueId queue) {
    return deactivate(queue, "");
  }

  @Override
  public Mono<Boolean> deactivate(QueueId queue, Activation cause) {
    return deactivate(queue, cause.value());
  }

  private Mono<Boolean> deactivate(QueueId queue, String cause) {
    return scripts
        .<Long>run(
            QueueScripts.DEACTIVATE,
            ScriptOutputType.INTEGER,
            new String[] {keys.active()},
            queue.toString(),
            cause)
        .flatMap(r -> announce(queue, r == 1L));
  }

  /** Tells mirrors to refresh now rather than at their next periodic read. */
  private Mono<Boolean> announce(QueueId queue, boolean changed) {
    if (!changed) {
      return Mono.just(false);
    }
    return Mono.fromCompletionStage(() -> commands.publish(keys.activeChanged(), queue.toString()))
        .thenReturn(true);
  }

  @Override
  public Mono<ActiveSet> read() {
    return Mono.fromCompletionStage(() -> commands.hgetall(keys.active())).map(this::parse);
  }

  /** A room at its limits is the field {@code room} (no item), value {@code full}. */
  @Override
  public Mono<Boolean> markFull(String room, boolean full) {
    String field = QueueId.requireRoom(room);
    Mono<Long> change =
        full
            ? Mono.fromCompletionStage(() -> commands.hset(keys.active(), field, FULL))
                .map(added -> added ? 1L : 0L)
            : Mono.fromCompletionStage(() -> commands.hdel(keys.active(), field));
    return change.flatMap(
        changed ->
            changed == 1L
                ? Mono.fromCompletionStage(() -> commands.publish(keys.activeChanged(), room))
                    .thenReturn(true)
                : Mono.just(false));
  }

  private ActiveSet parse(Map<String, String> entries) {
    Map<QueueId, Activation> active = new LinkedHashMap<>();
    Set<String> full = new HashSet<>();
    entries.forEach(
        (id, cause) -> {
          if (id.indexOf(':') < 0 && FULL.equals(cause)) {
            full.add(id);
            return;
          }
          try {
            active.put(QueueId.parse(id), Activation.fromValue(cause));
          } catch (IllegalArgumentException e) {
            log.warn("Skipping active queue entry that is not a queue id: {}", id);
          }
        });
    return new ActiveSet(active, full);
  }
}
