package io.anteroom.queue.script;

import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import reactor.core.publisher.Mono;

/**
 * Runs scripts by SHA and falls back to sending the source when the server does not know it (a new
 * server, a flushed script cache, a failover to a replica that never saw it). {@code EVAL} loads
 * the script as a side effect, so the next call by SHA succeeds.
 *
 * <p>A call whose reply a dropped connection lost is sent again by Lettuce on reconnecting; if the
 * server it reaches then lacks the script (a failover), the {@code EVAL} runs it a second time. So
 * a call may run twice, within about two command timeouts: every script says what a repeat does.
 *
 * <p>The scripts bound the caller's now by Redis's clock ({@code clock.lua}), except for a runner
 * given a {@link MutableClock}: a clock moved by hand runs them on its own time ({@link
 * LuaScript#onCallersClock()}).
 */
public final class ScriptRunner {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final boolean callersClock;

  /**
   * @param commands standalone, Sentinel or Cluster commands; their timeout bounds every call
   * @param clock the clock the callers take their now from: a {@link MutableClock} runs the scripts
   *     on it, any other is bounded by Redis's
   */
  public ScriptRunner(RedisClusterAsyncCommands<String, String> commands, Clock clock) {
    this.commands = commands;
    this.callersClock = clock instanceof MutableClock;
  }

  /** A runner for scripts that take no now. */
  public ScriptRunner(RedisClusterAsyncCommands<String, String> commands) {
    this(commands, Clock.systemUTC());
  }

  /** A lazy call: nothing is sent until the returned {@link Mono} is subscribed. */
  public <T> Mono<T> run(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
    LuaScript sent = callersClock ? script.onCallersClock() : script;
    return Mono.<T>fromCompletionStage(() -> commands.evalsha(sent.sha(), type, keys, args))
        .onErrorResume(
            RedisNoScriptException.class,
            e -> Mono.fromCompletionStage(() -> commands.eval(sent.source(), type, keys, args)));
  }
}
