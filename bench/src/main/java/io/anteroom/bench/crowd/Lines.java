package io.anteroom.bench.crowd;

import io.anteroom.bench.Run;
import io.anteroom.queue.QueueId;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The phases of new visitors joining lines through the gateway, each checked against Redis
 * afterwards. Each join has no cookies and asks for JSON, so the gateway gives it a new visitor id
 * and a place in line. Bulk joins go through {@link JoinLoop}; single requests (openers, status
 * polls) through Java's {@link HttpClient}.
 */
final class Lines {

  static final Duration TIMEOUT = Duration.ofSeconds(10);
  static final int WARM_SLICE = 20_000;
  private static final int WARM_POLLS = 500;

  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  private final URI gateway = URI.create(Run.option("gateway"));
  private final RedisLine redis;

  /**
   * The burst: new visitors joining one line as fast as the gateway takes them.
   *
   * @param joins the joins and the line before (the opener) and after them
   * @param latencies p50, p99 and max per join, ms
   * @param cpu percent of one core used during the burst by the gateway, Redis and this tool
   * @param firstError the first request failure, or null
   */
  record Burst(
      ChunkResult joins,
      Map<Answer.Kind, Integer> kinds,
      double[] latencies,
      OrderCheck order,
      double[] cpu,
      String firstError) {

    int size() {
      return joins.joins();
    }

    int failures() {
      return size() - kinds.get(Answer.Kind.WAITING);
    }

    boolean passed() {
      return failures() == 0
          && joins.lineAfter() - joins.lineBefore() == size()
          && order.passed()
          && order.positionExact() == size();
    }
  }

  Lines(RedisLine redis) {
    this.redis = redis;
  }

  /**
   * Joins visitors until one is answered as waiting, and returns how many joins that took. The
   * room's token bucket lets the first newcomer of an empty line in at once; once one person waits,
   * nobody else is, so every later join of this line must be a waiting answer. It also waits out
   * the gateway's mirror of active queues, which may lag the start-up activation by a moment.
   */
  int open(QueueId queue) {
    for (int attempt = 1; attempt <= 100; attempt++) {
      HttpResponse<String> answer = get(join(queue), null);
      if (answer != null && Answer.of(answer).kind() == Answer.Kind.WAITING) {
        return attempt;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
    }
    throw new IllegalStateException("no waiting answer in 100 joins of " + queue);
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
    StatusSample.poll(this, tickets.subList(0, Math.min(tickets.size(), WARM_POLLS)), redis, queue);
    return new WarmUp(slices);
  }

  /** The burst, checked whole: every join a waiting answer, in Redis, in order. */
  Burst burst(QueueId queue, int count, int ticketEvery, List<String> tickets) {
    long before = redis.waiting(queue);
    long[] pids = {
      Long.parseLong(Run.option("gateway.pid")),
      Long.parseLong(Run.option("redis.pid")),
      ProcessHandle.current().pid()
    };
    long[] cpu = cpuNanos(pids);
    long wall = System.nanoTime();
    JoinLog log = join(join(queue), count, ticketEvery);
    double[] used = new double[pids.length];
    long[] after = cpuNanos(pids);
    for (int i = 0; i < pids.length; i++) {
      used[i] = 100.0 * (after[i] - cpu[i]) / Math.max(1, System.nanoTime() - wall);
    }
    tickets.addAll(log.keptTickets());
    return new Burst(
        ChunkResult.of(log, before, redis.waiting(queue)),
        log.counts(),
        JoinLog.percentiles(log.latencies()),
        OrderCheck.of(log, redis.line(queue)),
        used,
        log.firstError());
  }

  /** More of the crowd through the gateway, checked by positions and the line's growth. */
  ChunkResult chunk(QueueId queue, int count, int ticketEvery, List<String> tickets) {
    long before = redis.waiting(queue);
    JoinLog log = join(join(queue), count, ticketEvery);
    tickets.addAll(log.keptTickets());
    return ChunkResult.of(log, before, redis.waiting(queue));
  }

  URI status() {
    return gateway.resolve("/_anteroom/status?room=" + CrowdBench.CROWD.room());
  }

  /** One GET asking for JSON, with this cookie unless null; blocking; null when it failed. */
  HttpResponse<String> get(URI uri, String cookie) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).header("Accept", "application/json").timeout(TIMEOUT);
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (IOException e) {
      return null;
    }
  }

  /** {@code count} joins at {@code uri}; returns once every one has been answered or failed. */
  private static JoinLog join(URI uri, int count, int ticketEvery) {
    JoinLog log = new JoinLog(count, ticketEvery);
    InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort());
    new JoinLoop(address, uri.getRawPath(), log).run(CrowdBench.IN_FLIGHT);
    return log;
  }

  private URI join(QueueId queue) {
    return gateway.resolve("/products/" + queue.item());
  }

  /** CPU time each process has used so far, all threads, user and system. */
  private static long[] cpuNanos(long[] pids) {
    long[] nanos = new long[pids.length];
    for (int i = 0; i < pids.length; i++) {
      nanos[i] =
          ProcessHandle.of(pids[i])
              .flatMap(p -> p.info().totalCpuDuration())
              .map(Duration::toNanos)
              .orElse(0L);
    }
    return nanos;
  }
}
