package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What one gateway or worker writes back when its read of the active queues finds the store came
 * back without what it read last (active_read.lua): empty, or older. Either way the queues it knew
 * to be on are on again, their lines let those they lost rejoin at their old place (reborn.lua,
 * rejoin.lua), and the room's live settings it read last are written back: where missing, or by
 * generation.
 */
final class StoreRecovery {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final Function<String, Duration> holds;
  private final List<Remembered> remembered;

  StoreRecovery(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      Function<String, Duration> holds,
      List<Remembered> remembered) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
    this.holds = holds;
    this.remembered = List.copyOf(remembered);
  }

  /**
   * The store came back empty: writes back the queues that were on where missing (reassert.lua: of
   * several instances, the union of what they knew), and holds their lines for those who come back
   * with tickets.
   *
   * @return how many queues this call wrote back
   */
  Mono<Long> afterEmpty(Map<QueueId, Activation> knew) {
    long now = clock.millis();
    String[] fields = new String[knew.size() * 2];
    int i = 0;
    for (Map.Entry<QueueId, Activation> entry : knew.entrySet()) {
      fields[i++] = entry.getKey().toString();
      fields[i++] = entry.getValue().value();
    }
    return scripts
        .<Long>run(
            QueueScripts.REASSERT, ScriptOutputType.INTEGER, new String[] {keys.active()}, fields)
        .flatMap(
            written ->
                Mono.fromCompletionStage(
                        () -> commands.hincrby(keys.active(), QueueKeys.GENERATION, 1))
                    .thenReturn(written))
        .flatMap(written -> reborn(knew.keySet(), now, false).thenReturn(written));
  }

  /**
   * The store came back older than this instance's last read: writes back the hash as it read it,
   * by generation (restore.lua: the latest reader wins, a later change is never undone), and lets
   * the lines take back those they lost while they go on admitting those they kept, holding back
   * only newcomers.
   *
   * @return whether this call wrote the hash back
   */
  Mono<Boolean> afterOlder(String generation, Map<String, String> entries, Collection<QueueId> on) {
    long now = clock.millis();
    String[] args = new String[1 + entries.size() * 2];
    args[0] = generation;
    int i = 1;
    for (Map.Entry<String, String> entry : entries.entrySet()) {
      args[i++] = entry.getKey();
      args[i++] = entry.getValue();
    }
    return scripts
        .<Long>run(
            QueueScripts.RESTORE, ScriptOutputType.INTEGER, new String[] {keys.active()}, args)
        .flatMap(written -> reborn(on, now, true).thenReturn(written == 1L));
  }

  private Mono<Void> reborn(Collection<QueueId> queues, long now, boolean older) {
    return Flux.fromIterable(queues)
        .flatMap(
            queue -> {
              long until = now + holds.apply(queue.room()).toMillis();
              return scripts
                  .<Long>run(
                      QueueScripts.REBORN,
                      ScriptOutputType.INTEGER,
                      keys.scriptKeys(queue),
                      Long.toString(now),
                      Long.toString(until),
                      older ? "older" : "")
                  .then(announce(queue, true));
            })
        .thenMany(
            Flux.fromIterable(remembered)
                .flatMap(memory -> older ? memory.restore() : memory.writeBack()))
        .then();
  }

  /** Tells mirrors to refresh now rather than at their next periodic read. */
  Mono<Boolean> announce(QueueId queue, boolean changed) {
    if (!changed) {
      return Mono.just(false);
    }
    return Mono.fromCompletionStage(() -> commands.publish(keys.activeChanged(), queue.toString()))
        .thenReturn(true);
  }
}
