package io.anteroom.queue;

import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link PlaceLimits} on Redis: a sorted set of joined items per visitor id ({@code claim.lua}),
 * checked against the lines themselves before a refusal, and a fixed one-minute counter per address
 * ({@code limit.lua}). Keys from {@link QueueKeys}.
 */
public final class RedisPlaceLimits implements PlaceLimits {

  /**
   * How long a claim counts without being checked against its line: a claim is made just before the
   * visitor joins, so a recent one may not be in the line yet.
   */
  static final Duration SETTLING = Duration.ofSeconds(2);

  private static final long WINDOW_MS = 60_000;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Clock clock;

  public RedisPlaceLimits(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands, clock);
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public Mono<Boolean> claim(QueueId queue, String visitor, int cap, Duration keep, Held held) {
    return tryClaim(queue, visitor, cap, keep, held)
        .flatMap(
            first ->
                first.recorded() || first.settled().isEmpty()
                    ? Mono.just(first.recorded())
                    : forgetGone(queue.room(), visitor, first.settled())
                        .flatMap(
                            forgotten ->
                                forgotten == 0
                                    ? Mono.just(false)
                                    : tryClaim(queue, visitor, cap, keep, null)
                                        .map(Claim::recorded)));
  }

  /**
   * The reply of {@code claim.lua}.
   *
   * @param recorded whether the claim was recorded
   * @param settled when refused, the items counted that were claimed long enough ago to be checked
   *     against their lines
   */
  private record Claim(boolean recorded, List<String> settled) {}

  private Mono<Claim> tryClaim(QueueId queue, String visitor, int cap, Duration keep, Held held) {
    long now = clock.millis();
    return scripts
        .<List<Object>>run(
            QueueScripts.CLAIM,
            ScriptOutputType.MULTI,
            new String[] {keys.places(queue.room(), visitor)},
            Long.toString(now),
            queue.item(),
            Integer.toString(cap),
            Long.toString(keep.toMillis()),
            held == null ? "" : held.item(),
            held == null ? "0" : Long.toString(held.joined().toEpochMilli()))
        .map(
            reply ->
                ((Long) reply.get(0)) == 1L ? new Claim(true, List.of()) : refused(reply, now));
  }

  private static Claim refused(List<Object> reply, long now) {
    List<String> settled = new ArrayList<>();
    for (int i = 1; i + 1 < reply.size(); i += 2) {
      if (Double.parseDouble(reply.get(i + 1).toString()) <= now - SETTLING.toMillis()) {
        settled.add(reply.get(i).toString());
      }
    }
    return new Claim(false, settled);
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
