package io.anteroom.bench.crowd;

import io.anteroom.queue.QueueId;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

/** The phases of joining lines through the gateway, each checked against Redis afterwards. */
final class Lines {

  private static final int OPEN_ATTEMPTS = 100;
  private static final int WARM_POLLS = 500;
  static final int WARM_SLICE = 20_000;

  private final Joiner joiner;
  private final GatewayProcess gateway;
  private final RedisLine redis;

  Lines(Joiner joiner, GatewayProcess gateway, RedisLine redis) {
    this.joiner = joiner;
    this.gateway = gateway;
    this.redis = redis;
  }

  /**
   * Joins visitors until one is answered as waiting, and returns how many joins that took. The
   * room's token bucket lets the first newcomer of an empty line in at once; once one person waits,
   * nobody else is, so every later join of this line must be a waiting answer. It also waits out
   * the gateway's mirror of active queues, which may lag the start-up activation by a moment.
   */
  int open(QueueId queue) {
    HttpRequest request =
        HttpRequest.newBuilder(join(queue))
            .header("Accept", "application/json")
            .timeout(Joiner.TIMEOUT)
            .build();
    for (int attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
      if (joiner.once(request).kind() == Answer.Kind.WAITING) {
        return attempt;
      }
      Pause.millis(200);
    }
    throw new IllegalStateException(
        "no waiting answer in " + OPEN_ATTEMPTS + " joins of " + queue + "; see " + gateway.log());
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
      long before = redis.waiting(queue);
      JoinLog log = joiner.join(join(queue), slice, Math.max(1, slice / WARM_POLLS));
      slices.add(ChunkResult.of(log, before, redis.waiting(queue)));
      tickets.addAll(log.keptTickets());
    }
    StatusSample.poll(
        joiner, status(), tickets.subList(0, Math.min(tickets.size(), WARM_POLLS)), redis, queue);
    return new WarmUp(slices);
  }

  URI status() {
    return gateway.uri("/_anteroom/status?room=" + CrowdBench.CROWD.room());
  }

  /** The burst, checked whole: every join a waiting answer, in Redis, in order. */
  BurstResult burst(
      QueueId queue, int count, int ticketEvery, List<String> tickets, long redisPid) {
    long before = redis.waiting(queue);
    CpuClock cpu = CpuClock.read(gateway.pid(), redisPid);
    JoinLog log = joiner.join(join(queue), count, ticketEvery);
    double[] used = CpuClock.read(gateway.pid(), redisPid).percentSince(cpu);
    tickets.addAll(log.keptTickets());
    OrderCheck order = OrderCheck.of(log, redis.line(queue));
    return new BurstResult(
        count,
        log.counts(),
        log.otherStatuses(),
        log.seconds(),
        Latencies.of(log.latencies()),
        before,
        redis.waiting(queue),
        order,
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
    return gateway.uri("/products/" + queue.item());
  }
}
