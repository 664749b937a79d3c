package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link TrafficStore} in each queue's {@link QueueKeys#hits(QueueId)} hash. The counts of one
 * {@link #record} go in one {@code hits.lua} call on one Redis server; on a Redis Cluster, where a
 * script may only touch keys of one slot, in one call per slot ({@link SlotHash} of each queue's
 * key). A queue found settled leaves its keys with the idle time to live, and is reported to the
 * room's {@link IdleLines}.
 */
public final class RedisTrafficStore implements TrafficStore {

  /** Calls of one {@link #record} on their way at once (on a Cluster, one per slot). */
  private static final int CONCURRENT_CALLS = 16;

  /** Quiet threshold for queues whose traffic is not counted: any traffic is quiet. */
  private static final double UNCOUNTED = 1e15;

  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;
  private final IdleLines idle;
  private final boolean clustered;

  /**
   * A store on one Redis server (or a Sentinel group's primary) whose settled queues' keys only
   * expire, unbounded in number.
   */
  public RedisTrafficStore(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this(commands, keys, clock, IdleLines.UNBOUNDED, false);
  }

  /**
   * @param idle where the lines of settled queues are reported
   * @param clustered whether {@code commands} reach a Redis Cluster, whose scripts must keep to one
   *     slot
   */
  public RedisTrafficStore(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      IdleLines idle,
      boolean clustered) {
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
    this.idle = idle;
    this.clustered = clustered;
  }

  @Override
  public Flux<WindowTotal> record(List<Hits> hits) {
    String now = Long.toString(clock.millis());
    return Flux.fromIterable(groups(hits))
        .flatMapDelayError(group -> record(group, now), CONCURRENT_CALLS, 1);
  }

  /** All of {@code hits} in one group, or on a Cluster one group per slot. */
  private Collection<List<Hits>> groups(List<Hits> hits) {
    if (hits.isEmpty()) {
      return List.of();
    }
    if (!clustered) {
      return List.of(hits);
    }
    Map<Integer, List<Hits>> bySlot = new LinkedHashMap<>();
    for (Hits counted : hits) {
      bySlot
          .computeIfAbsent(SlotHash.getSlot(keys.hits(counted.queue())), slot -> new ArrayList<>())
          .add(counted);
    }
    return bySlot.values();
  }

  private Flux<WindowTotal> record(List<Hits> group, String now) {
    String[] hitsKeys = new String[group.size()];
    String[] args = new String[1 + 2 * group.size()];
    args[0] = now;
    for (int i = 0; i < group.size(); i++) {
      Hits counted = group.get(i);
      hitsKeys[i] = keys.hits(counted.queue());
      args[1 + 2 * i] = Long.toString(counted.requests());
      args[2 + 2 * i] = Integer.toString(counted.policy().activationWindowSeconds());
    }
    return scripts
        .<List<Long>>run(QueueScripts.HITS, ScriptOutputType.MULTI, hitsKeys, args)
        .flatMapIterable(
            totals -> {
              List<WindowTotal> answered = new ArrayList<>(totals.size());
              for (int i = 0; i < totals.size(); i++) {
                answered.add(new WindowTotal(group.get(i), totals.get(i)));
              }
              return answered;
            });
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
