package io.anteroom.bench.crowd;

import io.anteroom.bench.Machine;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Goals 9 and 10 of the gateway: its heap stays flat with a million visitors waiting, and a burst
 * of new visitors are all put in line, in order, without an error. Runs against the redis-server
 * and the real gateway {@code bench/crowd.sh} starts ({@link Services}), and writes {@code
 * bench/results/crowd.md}. See {@code bench/README.md}.
 */
public final class CrowdBench {

  // The shipped shop room reads its item ids as integers; bench/crowd.sh turns both queues on.
  static final QueueId WARMUP = QueueId.of("shop", "9001");
  static final QueueId CROWD = QueueId.of("shop", "9002");

  private final CrowdOptions options;
  private final HeapProbe heap;
  private final List<HeapReading> readings = new ArrayList<>();
  private final long start = System.nanoTime();

  private CrowdBench(CrowdOptions options, Services services) {
    this.options = options;
    this.heap = new HeapProbe(services.gatewayPid());
  }

  public static void main(String[] args) throws IOException {
    CrowdOptions options = CrowdOptions.parse(args);
    Services services = Services.fromLauncher();
    CrowdResults results;
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(
                services.redisUri(), Duration.ofSeconds(60), Duration.ofSeconds(5), 1_000_000))) {
      results =
          new CrowdBench(options, services).run(services, new RedisLine(connector.commands()));
    }
    String markdown = new CrowdReport(results).markdown();
    Files.createDirectories(options.out().toAbsolutePath().getParent());
    Files.writeString(options.out(), markdown);
    System.out.println(markdown + "\nwritten to " + options.out().toAbsolutePath());
    if (!results.passed()) {
      System.out.println("not every goal was met");
      System.exit(1);
    }
  }

  private CrowdResults run(Services services, RedisLine line) {
    String loadAtStart = Machine.loadAverage();
    Instant started = Instant.now();
    long emptyMemory = line.usedMemory();
    Joiner joiner = new Joiner(options.inFlight());
    Lines lines = new Lines(joiner, services, line);
    reading("started, nobody waiting", 0, 0);

    WarmUp warmup = lines.warmUp(WARMUP, options.warmup(), options.maxWarmup());
    log(
        "warm-up: %d joins, %.0f/s in the first slice, %.0f/s in the last, other answers: %s",
        warmup.joins(), warmup.firstRate(), warmup.lastRate(), warmup.otherStatuses());
    reading("after the warm-up (other line)", 0, 0);

    int openers = lines.open(CROWD);
    int ticketEvery = Math.max(1, options.burst() / options.samples());
    List<String> tickets = new ArrayList<>();
    long deadline = System.nanoTime() + options.gatewayBudget().toNanos();
    BurstResult burst = lines.burst(CROWD, options.burst(), ticketEvery, tickets);
    log(
        "burst: %d joins, %.0f/s, %d failures, order %s",
        burst.size(),
        burst.joins().perSecond(),
        burst.failures(),
        burst.order().passed() ? "kept" : "BROKEN");
    long waiting = burst.joins().lineAfter();
    reading("after the burst", waiting, waiting);

    // More of the crowd through the gateway, a checkpoint's worth at a time with a heap reading
    // after each, until the line holds the whole crowd or the gateway's time is up.
    List<ChunkResult> chunks = new ArrayList<>();
    while (waiting < options.visitors() && System.nanoTime() < deadline) {
      long next = (waiting / options.checkpoint() + 1) * options.checkpoint();
      int count = (int) (Math.min(options.visitors(), next) - waiting);
      ChunkResult chunk = lines.chunk(CROWD, count, ticketEvery, tickets);
      chunks.add(chunk);
      waiting = chunk.lineAfter();
      log(
          "crowd: %d waiting, %.0f joins/s, other answers: %s",
          waiting, chunk.perSecond(), chunk.otherStatuses());
      reading("through the gateway", waiting, waiting);
    }
    long viaGateway = waiting;
    long direct = options.visitors() - waiting;
    double directSeconds = 0;
    if (direct > 0) {
      long fillStart = System.nanoTime();
      line.fill(CROWD, (int) direct, RoomPolicy.DEFAULTS, options.inFlight());
      directSeconds = (System.nanoTime() - fillStart) / 1e9;
      waiting = line.waiting(CROWD);
      log(
          "wrote %d more straight into Redis in %.1f s; %d waiting",
          direct, directSeconds, waiting);
      reading("after the rest were written into Redis", waiting, viaGateway);
    }
    StatusSample status =
        StatusSample.poll(joiner, lines.status(), spread(tickets, options.samples()), line, CROWD);
    log(
        "status polls: %d, %d positions match ZRANK + 1",
        status.polled(), status.positionMatches());
    reading("after the status polls", waiting, viaGateway);
    return new CrowdResults(
        options,
        services,
        loadAtStart,
        Machine.loadAverage(),
        started,
        (System.nanoTime() - start) / 60e9,
        line.version(),
        heap.collector(),
        warmup,
        openers,
        burst,
        chunks,
        viaGateway,
        direct,
        directSeconds,
        readings,
        status,
        line.waiting(CROWD),
        line.usedMemory(),
        emptyMemory,
        services.warnings());
  }

  private void reading(String label, long waiting, long viaGateway) {
    HeapReading reading = heap.read(label, waiting, viaGateway);
    readings.add(reading);
    log(
        "heap %s: %.1f MB live, %.1f MB used after GC",
        label, reading.liveBytes() / 1e6, reading.usedBytes() / 1e6);
  }

  /** At most {@code count} of {@code all}, evenly spread, so the polls reach deep into the line. */
  private static List<String> spread(List<String> all, int count) {
    if (all.size() <= count) {
      return all;
    }
    List<String> chosen = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      chosen.add(all.get((int) ((long) i * all.size() / count)));
    }
    return chosen;
  }

  private void log(String format, Object... args) {
    System.out.printf(
        "[%4ds] %s%n", (System.nanoTime() - start) / 1_000_000_000L, String.format(format, args));
  }
}
