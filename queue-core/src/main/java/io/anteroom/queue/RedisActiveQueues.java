package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/** {@link ActiveQueues} in the hash {@link QueueKeys#active()}: one key, one command per change. */
public final class RedisActiveQueues implements ActiveQueues {

  private static final Logger log = LoggerFactory.getLogger(RedisActiveQueues.class);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;

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
  public Mono<Map<QueueId, Activation>> list() {
    return Mono.fromCompletionStage(() -> commands.hgetall(keys.active())).map(this::parse);
  }

  private Map<QueueId, Activation> parse(Map<String, String> entries) {
    Map<QueueId, Activation> active = new LinkedHashMap<>();
    entries.forEach(
        (id, cause) -> {
          try {
            active.put(QueueId.parse(id), Activation.fromValue(cause));
          } catch (IllegalArgumentException e) {
            log.warn("Skipping active queue entry that is not a queue id: {}", id);
          }
        });
    return active;
  }
}
