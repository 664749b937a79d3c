package io.anteroom.queue;

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

/** {@link TrafficStore} in each queue's {@link QueueKeys#hits(QueueId)} hash. */
public final class RedisTrafficStore implements TrafficStore {

  /** Quiet threshold for queues whose traffic is not counted: any traffic is quiet. */
  private static final double UNCOUNTED = 1e15;

  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;

  public RedisTrafficStore(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public Mono<Long> record(QueueId queue, long requests, RoomPolicy policy) {
    return scripts.run(
        QueueScripts.HITS,
        ScriptOutputType.INTEGER,
        new String[] {keys.hits(queue)},
        Long.toString(clock.millis()),
        Long.toString(requests),
        Integer.toString(policy.activationWindowSeconds()));
  }

  /**
   * How long the keys of a queue turned off stay: long enough for its sessions to end and its
   * finished entries to serve status, as if the queue were still on.
   */
  static Duration idleTimeToLive(RoomPolicy policy) {
    Duration sessions = policy.sessionDuration().multipliedBy(2);
    return sessions.compareTo(policy.finishedRetention()) > 0
        ? sessions
        : policy.finishedRetention();
  }

  private String[] settleKeys(QueueId queue) {
    String[] queueKeys = keys.scriptKeys(queue);
    String[] all = Arrays.copyOf(queueKeys, queueKeys.length + 1);
    all[queueKeys.length] = keys.hits(queue);
    return all;
  }

  @Override
  public Mono<Boolean> settled(QueueId queue, RoomPolicy policy) {
    return scripts
        .<List<Long>>run(
            QueueScripts.SETTLE,
            ScriptOutputType.MULTI,
            settleKeys(queue),
            Long.toString(clock.millis()),
            Integer.toString(policy.activationWindowSeconds()),
            Double.toString(policy.activatesOnTraffic() ? policy.quietBelow() : UNCOUNTED),
            Long.toString(policy.coolDown().toMillis()),
            Long.toString(idleTimeToLive(policy).toMillis()))
        .map(reply -> reply.get(0) == 1L);
  }
}
