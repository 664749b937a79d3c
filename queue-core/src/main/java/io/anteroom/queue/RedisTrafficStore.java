package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
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

  @Override
  public Mono<Boolean> settled(QueueId queue, RoomPolicy policy) {
    return scripts
        .<List<Long>>run(
            QueueScripts.SETTLE,
            ScriptOutputType.MULTI,
            new String[] {keys.waiting(queue), keys.state(queue), keys.hits(queue)},
            Long.toString(clock.millis()),
            Integer.toString(policy.activationWindowSeconds()),
            Double.toString(policy.activatesOnTraffic() ? policy.quietBelow() : UNCOUNTED),
            Long.toString(policy.coolDown().toMillis()))
        .map(reply -> reply.get(0) == 1L);
  }
}
