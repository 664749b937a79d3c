package io.anteroom.bench.crowd;

import io.anteroom.bench.Await;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import reactor.core.publisher.Flux;

/**
 * The lines as Redis holds them (key layout from {@link QueueKeys}), read and, for the part of the
 * crowd the gateway has no time for, written through queue-core's own store and enqueue script.
 */
final class RedisLine {

  private static final SecureRandom RANDOM = new SecureRandom();

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final RedisQueueStore store;

  RedisLine(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
    this.store = new RedisQueueStore(commands, keys, Clock.systemUTC());
  }

  long waiting(QueueId queue) {
    return Await.result(commands.zcard(keys.waiting(queue)));
  }

  /** The whole line, front first, with scores. */
  List<ScoredValue<String>> line(QueueId queue) {
    return Await.result(commands.zrangeWithScores(keys.waiting(queue), 0, -1));
  }

  /** 0-based ranks of these visitors, pipelined; -1 for one not in line. */
  long[] ranks(QueueId queue, List<String> visitors) {
    List<RedisFuture<Long>> replies =
        visitors.stream().map(v -> commands.zrank(keys.waiting(queue), v)).toList();
    return replies.stream().map(Await::result).mapToLong(r -> r == null ? -1 : r).toArray();
  }

  /**
   * {@code count} new visitors join straight in Redis, as the gateway would make them join, {@code
   * inFlight} calls at a time. Their ids have the gateway's form: 128 random bits, base64url.
   */
  void fill(QueueId queue, int count, RoomPolicy policy, int inFlight) {
    Flux.range(0, count)
        .flatMap(i -> store.enqueue(queue, newVisitorId(), policy), inFlight)
        .doOnNext(
            result -> {
              if (result.admitted() || !result.added()) {
                throw new IllegalStateException(
                    "a direct join did not take a new place: " + result);
              }
            })
        .blockLast();
  }

  /** {@code used_memory} of {@code INFO memory}. */
  long usedMemory() {
    return Long.parseLong(
        Await.result(commands.info("memory")).replaceAll("(?s).*\\bused_memory:(\\d+).*", "$1"));
  }

  String version() {
    return Await.result(commands.info("server")).replaceAll("(?s).*redis_version:(\\S+).*", "$1");
  }

  private static String newVisitorId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
