package io.anteroom.queue.shadow;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * {@link ShadowLines} on Redis, under {@code keys.shadow()}:
 *
 * <pre>
 * ZADD   wr:shadow:{shop}:42:waiting &lt;sequence&gt; &lt;visitor&gt;  the virtual line (join.lua)
 * ZADD   wr:shadow:{shop}:42:seen    &lt;joined-ms&gt; &lt;visitor&gt;  never polled: the join time
 * ZADD   wr:shadow:{shop}:42:running &lt;admitted-ms&gt; &lt;visitor&gt; never touched: the admission time
 * HSET   wr:shadow:{shop}:42:state   waits-at &lt;ms&gt;            waits read up to (shadow_waits.lua)
 * LPUSH  wr:shadow:{shop}:42:waits   &lt;ms&gt; ...                 the last 1,000 waits, newest first
 * PEXPIRE (each of them)             &lt;idle time to live&gt;      every join and every tick
 * </pre>
 */
public final class RedisShadowLines implements ShadowLines {

  /**
   * How long after an admission its wait is read: a join admitted at once by a gateway whose call
   * reached Redis after the worker's last read still falls in the next one.
   */
  static final Duration LAG = Duration.ofSeconds(1);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final QueueStore store;
  private final Clock clock;

  /**
   * @param keys the real layout; its {@link QueueKeys#shadow()} is used
   */
  public RedisShadowLines(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys.shadow();
    this.store = RedisQueueStore.shadow(commands, keys, clock);
    this.clock = clock;
  }

  @Override
  public Mono<Boolean> join(QueueId queue, String visitor, RoomPolicy policy) {
    // Read apart from the join: gateways' joins in flight meanwhile may pass the bound by a few.
    return Mono.fromCompletionStage(() -> commands.zcard(keys.waiting(queue)))
        .flatMap(
            waiting ->
                waiting >= MAX_WAITING
                    ? Mono.just(false)
                    : store.join(queue, visitor, ShadowLines.virtual(policy)).thenReturn(true));
  }

  @Override
  public QueueStore store() {
    return store;
  }

  @Override
  public Mono<Long> recordWaits(QueueId queue, RoomPolicy policy) {
    String[] queueKeys = keys.scriptKeys(queue);
    String[] keyNames = Arrays.copyOf(queueKeys, queueKeys.length + 1);
    keyNames[queueKeys.length] = keys.waits(queue);
    return scripts
        .<List<Long>>run(
            QueueScripts.SHADOW_WAITS,
            ScriptOutputType.MULTI,
            keyNames,
            Long.toString(clock.millis()),
            Long.toString(LAG.toMillis()),
            Integer.toString(WAITS_KEPT),
            Long.toString(policy.idleTimeToLive().toMillis()))
        .map(reply -> reply.get(0));
  }

  @Override
  public Mono<WaitQuantiles> waits(QueueId queue) {
    return Mono.fromCompletionStage(() -> commands.lrange(keys.waits(queue), 0, WAITS_KEPT - 1))
        .map(waits -> WaitQuantiles.of(waits.stream().map(Long::parseLong).toList()));
  }
}
