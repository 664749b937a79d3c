package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link PlaceLimits} on Redis: a sorted set of joined items per visitor id ({@code claim.lua}),
 * checked against the lines themselves before a refusal, and a fixed one-minute counter per address
 * ({@code limit.lua}). Keys from {@link QueueKeys}.
 */
public final class RedisPlaceLimits implements PlaceLimits {

  /** How long a joined item is remembered without being looked at; longer than any wait. */
  static final Duration KEEP = Duration.ofDays(1);

  private static final long WINDOW_MS = 60_000;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;

  public RedisPlaceLimits(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public Mono<Boolean> claim(QueueId queue, String visitor, int cap) {
    return tryClaim(queue, visitor, cap)
        .flatMap(
            counted ->
                counted.isEmpty()
                    ? Mono.just(true)
                    : forgetGone(queue.room(), visitor, counted)
                        .flatMap(
                            forgotten ->
                                forgotten == 0
                                    ? Mono.just(false)
                                    : tryClaim(queue, visitor, cap).map(List::isEmpty)));
  }

  /** Empty when recorded; otherwise the items counted against the cap. */
  private Mono<List<String>> tryClaim(QueueId queue, String visitor, int cap) {
    return scripts
        .<List<Object>>run(
            QueueScripts.CLAIM,
            ScriptOutputType.MULTI,
            new String[] {keys.places(queue.room(), visitor)},
            Long.toString(clock.millis()),
            queue.item(),
            Integer.toString(cap),
            Long.toString(KEEP.toMillis()))
        .map(
            reply ->
                ((Long) reply.get(0)) == 1L
                    ? List.of()
                    : reply.subList(1, reply.size()).stream().map(Object::toString).toList());
  }

  /** Drops the counted items whose line the visitor is no longer in; how many were dropped. */
  private Mono<Long> forgetGone(String room, String visitor, List<String> items) {
    String places = keys.places(room, visitor);
    return Flux.fromIterable(items)
        .filterWhen(
            item ->
                Mono.fromCompletionStage(
                        () -> commands.zscore(keys.waiting(QueueId.named(room, item)), visitor))
                    .map(score -> false)
                    .defaultIfEmpty(true))
        .collectList()
        .flatMap(
            gone ->
                gone.isEmpty()
                    ? Mono.just(0L)
                    : Mono.fromCompletionStage(
                        () -> commands.zrem(places, gone.toArray(String[]::new))));
  }

  @Override
  public Mono<Boolean> countNewPlace(String room, String address, int perMinute) {
    long minute = clock.millis() / WINDOW_MS;
    return scripts
        .<Long>run(
            QueueScripts.LIMIT,
            ScriptOutputType.INTEGER,
            new String[] {keys.newPlaces(room, address, minute)},
            Integer.toString(perMinute),
            Long.toString(2 * WINDOW_MS))
        .map(counted -> counted == 1L);
  }

  @Override
  public long secondsToNextWindow() {
    long left = WINDOW_MS - clock.millis() % WINDOW_MS;
    return Math.max(1, (left + 999) / 1000);
  }
}
