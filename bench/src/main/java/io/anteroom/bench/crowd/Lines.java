package io.anteroom.bench.crowd;

import io.anteroom.queue.QueueId;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** The phases of joining lines through the gateway, each checked against Redis afterwards. */
final class Lines {

  private static final int OPEN_ATTEMPTS = 100;
  private static final int WARM_POLLS = 500;
  static final int WARM_SLICE = 20_000;

  private final Joiner joiner;
  private final Services services;
  private final RedisLine redis;

  Lines(Joiner joiner, Services services, RedisLine redis) {
    this.joiner = joiner;
    this.services = services;
    this.redis = redis;
  }

  /**
   * Joins visitors until one is answered as waiting, and returns how many joins that took. The
   * room's token bucket lets the first newcomer of an empty line in at once; once one person waits,
   * nobody else is, so every later join of this line must be a waiting answer. It also waits out
   * the gateway's mirror of active queues, which may lag the start-up activation by a moment.
   */
  int open(QueueId queue) {
    for (int attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
      HttpResponse<String> answer = joiner.get(join(queue), null);
      if (answer != null && Answer.of(answer).kind() == Answer.Kind.WAITING) {
        return attempt;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
    }
    throw new IllegalStateException(
        "no waiting answer in " + OPEN_ATTEMPTS + " joins of " + queue + "; see the gateway's log");
  }

  /**
   * Warms the gateway's JIT up on another line, in slices of joins while it keeps getting faster
   * ({@link WarmUp}), then polls the status of some of them, so that code loaded on first use is
   * not mistaken for growth later. Cold answers (503) are counted, not fatal.
   */
  WarmUp warmUp(QueueId queue, int minimum, int maximum) {
    open(queue);
    int slice = Math.max(1, Math.min(WARM_SLICE, minimum));
    List<ChunkResult> slices = new ArrayList<>();
    List<String> tickets = new ArrayList<>();
    while (WarmUp.goOn(slices, minimum, maximum)) {
      slices.add(chunk(queue, slice, Math.max(1, slice / WARM_POLLS), tickets));
    }
    StatusSample.poll(
        joiner, status(), tickets.subList(0, Math.min(tickets.size(), WARM_POLLS)), redis, queue);
    return new WarmUp(slices);
  }

  URI status() {
    return services.uri("/_anteroom/status?room=" + CrowdBench.CROWD.room());
  }

  /** The burst, checked whole: every join a waiting answer, in Redis, in order. */
  BurstResult burst(QueueId queue, int count, int ticketEvery, List<String> tickets) {
    long before = redis.waiting(queue);
    CpuClock cpu = CpuClock.read(services);
    JoinLog log = joiner.join(join(queue), count, ticketEvery);
    double[] used = CpuClock.read(services).percentSince(cpu);
    tickets.addAll(log.keptTickets());
    return new BurstResult(
        ChunkResult.of(log, before, redis.waiting(queue)),
        log.counts(),
        Latencies.of(log.latencies()),
        OrderCheck.of(log, redis.line(queue)),
        used,
        log.firstError());
  }

  /** More of the crowd through the gateway, checked by positions and the line's growth. */
  ChunkResult chunk(QueueId queue, int count, int ticketEvery, List<String> tickets) {
    long before = redis.waiting(queue);
    JoinLog log = joiner.join(join(queue), count, ticketEvery);
    tickets.addAll(log.keptTickets());
    return ChunkResult.of(log, before, redis.waiting(queue));
  }

  private URI join(QueueId queue) {
    return services.uri("/products/" + queue.item());
  }
}
