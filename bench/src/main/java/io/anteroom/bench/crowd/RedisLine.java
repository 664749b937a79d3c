package io.anteroom.bench.crowd;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Flux;

/**
 * The lines as Redis holds them (key layout from {@link QueueKeys}), read and, for the part of the
 * crowd the gateway has no time for, written through queue-core's own store and enqueue script.
 */
final class RedisLine {

  private static final long TIMEOUT_SECONDS = 60;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys = new QueueKeys("wr");
  private final RedisQueueStore store;

  RedisLine(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
    this.store = new RedisQueueStore(commands, keys, Clock.systemUTC());
  }

  long waiting(QueueId queue) {
    return await(commands.zcard(keys.waiting(queue)));
  }

  /** The whole line, front first, with scores. */
  List<ScoredValue<String>> line(QueueId queue) {
    return await(commands.zrangeWithScores(keys.waiting(queue), 0, -1));
  }

  /** 0-based ranks of these visitors, pipelined; -1 for one not in line. */
  long[] ranks(QueueId queue, List<String> visitors) {
    List<CompletionStage<Long>> replies = new ArrayList<>(visitors.size());
    for (String visitor : visitors) {
      replies.add(commands.zrank(keys.waiting(queue), visitor));
    }
    long[] ranks = new long[visitors.size()];
    for (int i = 0; i < ranks.length; i++) {
      Long rank = await(replies.get(i));
      ranks[i] = rank == null ? -1 : rank;
    }
    return ranks;
  }

  /** Whether the queue is turned on in Redis (the gateway mirrors this within a moment). */
  boolean active(QueueId queue) {
    return await(commands.hexists(keys.active(), queue.toString()));
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

  /** A field of {@code INFO memory}, e.g. {@code used_memory}. */
  long memory(String field) {
    for (String line : await(commands.info("memory")).split("\r?\n")) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).strip());
      }
    }
    throw new IllegalStateException("INFO memory has no " + field);
  }

  private static String newVisitorId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static <T> T await(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Redis", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("Redis call failed: " + e, e);
    }
  }
}
