package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * {@link TrafficStore} in each queue's {@link QueueKeys#hits(QueueId)} hash. A queue found settled
 * leaves its keys with the idle time to live, and is reported to the room's {@link IdleLines}.
 */
public final class RedisTrafficStore implements TrafficStore {

  /** Quiet threshold for queues whose traffic is not counted: any traffic is quiet. */
  private static final double UNCOUNTED = 1e15;

  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final IdleLines idle;

  /** A store whose settled queues' keys only expire, unbounded in number. */
  public RedisTrafficStore(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this(commands, keys, clock, IdleLines.UNBOUNDED);
  }

  /**
   * @param idle where the lines of settled queues are reported
   */
  public RedisTrafficStore(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      IdleLines idle) {
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
    this.clock = clock;
    this.idle = idle;
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

  private String[] settleKeys(QueueId queue) {
    String[] queueKeys = keys.scriptKeys(queue);
    String[] all = Arrays.copyOf(queueKeys, queueKeys.length + 1);
    all[queueKeys.length] = keys.hits(queue);
    return all;
  }

  /**
   * A queue that holds everyone is settled at the second check that finds nobody waiting, whatever
   * its traffic: turning it off is always safe (the next visitor left waiting turns it on again),
   * and a queue that stayed on for its cool-down would count against the room's cap of queues on
   * for every item requested once.
   */
  @Override
  public Mono<Boolean> settled(QueueId queue, RoomPolicy policy) {
    boolean holdsEveryone = policy.holdsEveryone(clock.instant());
    boolean counted = policy.activatesOnTraffic() && !holdsEveryone;
    return scripts
        .<List<Long>>run(
            QueueScripts.SETTLE,
            ScriptOutputType.MULTI,
            settleKeys(queue),
            Long.toString(clock.millis()),
            Integer.toString(policy.activationWindowSeconds()),
            Double.toString(counted ? policy.quietBelow() : UNCOUNTED),
            Long.toString(holdsEveryone ? 0 : policy.coolDown().toMillis()),
            Long.toString(policy.idleTimeToLive().toMillis()))
        .map(reply -> reply.get(0) == 1L)
        .flatMap(
            done ->
                done
                    ? idle.written(queue.room(), List.of(queue.item()), policy.idleTimeToLive())
                        .onErrorReturn(0L)
                        .thenReturn(true)
                    : Mono.just(false));
  }
}
