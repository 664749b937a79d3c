package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link RoomStore} on Redis: room_admit.lua over the room's budget, its sessions and the keys of
 * each queue, and room_totals.lua over the same, all in the room's Cluster slot ({@link
 * QueueKeys}).
 */
public final class RedisRoomStore implements RoomStore {

  /** The measured new users come from the scripts per 1000 minutes, an integer. */
  private static final double PER_1000_MINUTES = 1000.0;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;

  public RedisRoomStore(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public Mono<RoomAdmitResult> admit(
      String roomName, RoomPolicy room, Map<QueueId, RoomPolicy> queues) {
    return admit(roomName, room, queues, "whole");
  }

  @Override
  public Mono<RoomAdmitResult> admitWindow(
      String roomName, RoomPolicy room, Map<QueueId, RoomPolicy> window, double roomPass) {
    return admit(roomName, room, window, String.format(Locale.ROOT, "%.6f", roomPass));
  }

  private Mono<RoomAdmitResult> admit(
      String roomName, RoomPolicy room, Map<QueueId, RoomPolicy> queues, String roomPass) {
    List<QueueId> order = new ArrayList<>(queues.keySet());
    List<String> keyList = new ArrayList<>(List.of(keys.budget(roomName), keys.sessions(roomName)));
    List<String> args = new ArrayList<>(roomArgs(room));
    args.add(roomPass);
    for (QueueId queue : order) {
      if (!queue.room().equals(roomName)) {
        throw new IllegalArgumentException(queue + " is not a queue of room " + roomName);
      }
      RoomPolicy policy = queues.get(queue);
      keyList.addAll(List.of(keys.scriptKeys(queue)).subList(0, 5));
      keyList.add(keys.admitted(queue));
      args.add(Double.toString(policy.admitPerSecond()));
      args.add(Double.toString(policy.burstTokens()));
      args.add(Integer.toString(policy.maxActive()));
      args.add(Double.toString(policy.budget().weight()));
      args.add(Long.toString(policy.abandonAfter().toMillis()));
    }
    return scripts
        .<List<Long>>run(
            QueueScripts.ROOM_ADMIT,
            ScriptOutputType.MULTI,
            keyList.toArray(String[]::new),
            args.toArray(String[]::new))
        .map(reply -> result(order, reply));
  }

  @Override
  public Mono<RoomAdmitResult> check(String roomName, RoomPolicy room) {
    return admit(roomName, room, Map.of());
  }

  @Override
  public Mono<Map<QueueId, Long>> waiting(String roomName, Collection<QueueId> queues) {
    return Flux.fromIterable(queues)
        .filter(queue -> queue.room().equals(roomName))
        .flatMapSequential(
            queue ->
                Mono.fromCompletionStage(() -> commands.zcard(keys.waiting(queue)))
                    .map(count -> Map.entry(queue, count)))
        .collectMap(Map.Entry::getKey, Map.Entry::getValue);
  }

  @Override
  public Mono<RoomTotals> totals(String roomName, RoomPolicy room, Collection<QueueId> queues) {
    List<String> keyList = new ArrayList<>(List.of(keys.budget(roomName), keys.sessions(roomName)));
    for (QueueId queue : queues) {
      if (!queue.room().equals(roomName)) {
        throw new IllegalArgumentException(queue + " is not a queue of room " + roomName);
      }
      keyList.add(keys.waiting(queue));
    }
    return scripts
        .<List<Long>>run(
            QueueScripts.ROOM_TOTALS,
            ScriptOutputType.MULTI,
            keyList.toArray(String[]::new),
            Long.toString(clock.millis()),
            Long.toString(room.sessionIdleLimit().toMillis()))
        .map(
            reply ->
                new RoomTotals(
                    reply.get(0),
                    reply.get(1) / PER_1000_MINUTES,
                    reply.get(2),
                    reply.get(3) == 1L));
  }

  @Override
  public Mono<Boolean> enter(QueueId queue, String visitor, RoomPolicy policy, RoomPolicy room) {
    return scripts
        .<Long>run(
            QueueScripts.ENTER,
            ScriptOutputType.INTEGER,
            keys.scriptKeys(queue),
            Long.toString(clock.millis()),
            Long.toString(policy.sessionDuration().toMillis() * 2),
            Double.toString(room.budget().newUsersPerSecond()),
            Double.toString(room.budget().burstTokens()),
            Integer.toString(room.budget().totalActiveUsers()),
            Long.toString(room.sessionIdleLimit().toMillis()),
            visitor,
            Long.toString(policy.sessionIdleLimit().toMillis()),
            room.budget().sessionScope().value())
        .map(entered -> entered == 1L);
  }

  /** ARGV 1-6 of room_admit.lua. */
  private List<String> roomArgs(RoomPolicy room) {
    return List.of(
        Long.toString(clock.millis()),
        Double.toString(room.budget().newUsersPerSecond()),
        Double.toString(room.budget().burstTokens()),
        Integer.toString(room.budget().totalActiveUsers()),
        Long.toString(room.sessionIdleLimit().toMillis()),
        Integer.toString(room.admitBatch()));
  }

  private static RoomAdmitResult result(List<QueueId> order, List<Long> reply) {
    Map<QueueId, AdmitResult> queues = new LinkedHashMap<>();
    Map<QueueId, Double> passes = new LinkedHashMap<>();
    for (int i = 0; i < order.size(); i++) {
      int at = 3 + i * 5;
      queues.put(
          order.get(i),
          new AdmitResult(reply.get(at), reply.get(at + 1), reply.get(at + 2), reply.get(at + 3)));
      passes.put(order.get(i), reply.get(at + 4) / 1e6);
    }
    return new RoomAdmitResult(
        reply.get(0),
        reply.get(1),
        reply.get(2) == 1L,
        reply.get(reply.size() - 1) / PER_1000_MINUTES,
        queues,
        passes);
  }
}
