package io.anteroom.queue.script;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import reactor.core.publisher.Mono;

/**
 * Runs scripts by SHA and falls back to sending the source when the server does not know it (a new
 * server, a flushed script cache, a failover to a replica that never saw it). {@code EVAL} loads
 * the script as a side effect, so the next call by SHA succeeds.
 *
 * <p>A call whose reply a dropped connection lost is sent again by Lettuce on reconnecting; if the
 * server it reaches then lacks the script (a failover), the {@code EVAL} runs it a second time. So
 * a call may run twice, within about two command timeouts: every script says what a repeat does.
 */
public final class ScriptRunner {

  private final RedisClusterAsyncCommands<String, String> commands;

  /**
   * @param commands standalone, Sentinel or Cluster commands; their timeout bounds every call
   */
  public ScriptRunner(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
  }

  /** A lazy call: nothing is sent until the returned {@link Mono} is subscribed. */
  public <T> Mono<T> run(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
    return Mono.<T>fromCompletionStage(() -> commands.evalsha(script.sha(), type, keys, args))
        .onErrorResume(
            RedisNoScriptException.class,
            e -> Mono.fromCompletionStage(() -> commands.eval(script.source(), type, keys, args)));
  }
}
