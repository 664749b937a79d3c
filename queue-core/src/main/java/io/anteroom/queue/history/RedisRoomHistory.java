package io.anteroom.queue.history;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import reactor.core.publisher.Mono;

/** {@link RoomHistory} in one sorted set per room, {@link QueueKeys#history(String)}. */
public final class RedisRoomHistory implements RoomHistory {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;

  public RedisRoomHistory(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public Mono<Boolean> record(String room, HistorySample sample) {
    return scripts
        .<Long>run(
            QueueScripts.HISTORY,
            ScriptOutputType.INTEGER,
            new String[] {keys.history(room)},
            Long.toString(clock.millis()),
            Long.toString(INTERVAL.toMillis()),
            Long.toString(SPAN.toMillis()),
            Long.toString(sample.waiting()),
            Long.toString(sample.running()),
            Long.toString(sample.finished()),
            Long.toString(sample.admitted()))
        .map(kept -> kept == 1L);
  }

  @Override
  public Mono<List<HistorySample>> recent(String room) {
    long since = clock.millis() - SPAN.toMillis();
    return Mono.fromCompletionStage(
            () ->
                commands.zrangebyscore(
                    keys.history(room), Range.create((double) since, Double.POSITIVE_INFINITY)))
        .map(
            members ->
                members.stream().map(HistorySample::decode).filter(Objects::nonNull).toList());
  }
}
