package io.anteroom.bench.crowd;

import io.anteroom.bench.Run;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Goals 9 and 10 of the gateway: its heap stays flat with a million visitors waiting, and a burst
 * of new visitors are all put in line, in order, without an error. Runs against the redis-server
 * and the real gateway {@code bench/crowd.sh} starts, and writes {@code bench/results/crowd.md};
 * what it measured stays in its fields for {@link CrowdReport}. See {@code bench/README.md}.
 */
public final class CrowdBench {

  // The shipped shop room reads its item ids as integers; bench/crowd.sh turns both queues on.
  static final QueueId WARMUP = QueueId.of("shop", "9001");
  static final QueueId CROWD = QueueId.of("shop", "9002");
  static final int IN_FLIGHT = 256; // requests outstanding at once, each on its own connection
  static final int CHECKPOINT = 100_000; // visitors between two heap readings
  static final int SAMPLES = 1000; // waiting visitors whose status is polled at the end

  /** How long joins through the gateway may take after the warm-up; the rest go into Redis. */
  static final Duration GATEWAY_BUDGET = Duration.ofSeconds(360);

  final int visitors = Run.number("visitors");
  final List<HeapReading> readings = new ArrayList<>();
  final List<ChunkResult> chunks = new ArrayList<>();
  final Instant started = Instant.now();
  final String loadAtStart = Run.loadAverage();
  private final long start = System.nanoTime();
  private final HeapProbe heap = new HeapProbe(Long.parseLong(Run.option("gateway.pid")));
  String loadAtEnd;
  double minutes;
  String redisVersion;
  String collector;
  WarmUp warmup;
  int openers;
  Lines.Burst burst;
  long viaGateway;
  long direct;
  double directSeconds;
  StatusSample status;
  long lineLength;
  long redisUsedMemory;
  long redisEmptyMemory;
  List<String> warnings;

  public static void main(String[] args) throws IOException {
    CrowdBench bench = new CrowdBench();
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(
                Run.option("redis"), Duration.ofSeconds(60), Duration.ofSeconds(5), 1_000_000))) {
      bench.run(new RedisLine(connector.commands()));
    }
    String markdown = new CrowdReport(bench).markdown();
    Path out = Path.of(Run.option("out"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, markdown);
    System.out.println(markdown + "\nwritten to " + out.toAbsolutePath());
    if (!bench.passed()) {
      System.out.println("not every goal was met");
      System.exit(1);
    }
  }

  /** Whether both goals were met and the status polls answered every position right. */
  boolean passed() {
    return burst.passed() && HeapTrend.of(readings).flat(visitors) && status.passed();
  }

  private void run(RedisLine line) throws IOException {
    redisEmptyMemory = line.usedMemory();
    Lines lines = new Lines(line);
    reading("started, nobody waiting", 0, 0);
    warmup = lines.warmUp(WARMUP, Run.number("warmup"), Run.number("max-warmup"));
    log(
        "warm-up: %d joins, %.0f/s in the first slice, %.0f/s in the last, other answers: %s",
        warmup.joins(), warmup.firstRate(), warmup.lastRate(), warmup.otherStatuses());
    reading("after the warm-up (other line)", 0, 0);

    openers = lines.open(CROWD);
    int ticketEvery = Math.max(1, Run.number("burst") / SAMPLES);
    List<String> tickets = new ArrayList<>();
    long deadline = System.nanoTime() + GATEWAY_BUDGET.toNanos();
    burst = lines.burst(CROWD, Run.number("burst"), ticketEvery, tickets);
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
    while (waiting < visitors && System.nanoTime() < deadline) {
      int count = (int) (Math.min(visitors, (waiting / CHECKPOINT + 1) * CHECKPOINT) - waiting);
      ChunkResult chunk = lines.chunk(CROWD, count, ticketEvery, tickets);
      chunks.add(chunk);
      waiting = chunk.lineAfter();
      log(
          "crowd: %d waiting, %.0f joins/s, other answers: %s",
          waiting, chunk.perSecond(), chunk.otherStatuses());
      reading("through the gateway", waiting, waiting);
    }
    viaGateway = waiting;
    direct = visitors - waiting;
    if (direct > 0) {
      long fillStart = System.nanoTime();
      line.fill(CROWD, (int) direct, RoomPolicy.DEFAULTS, IN_FLIGHT);
      directSeconds = (System.nanoTime() - fillStart) / 1e9;
      waiting = line.waiting(CROWD);
      log(
          "wrote %d more straight into Redis in %.1f s; %d waiting",
          direct, directSeconds, waiting);
      reading("after the rest were written into Redis", waiting, viaGateway);
    }
    // At most SAMPLES of the tickets, evenly spread, so the polls reach deep into the line.
    int samples = Math.min(SAMPLES, tickets.size());
    List<String> sample = new ArrayList<>();
    for (int i = 0; i < samples; i++) {
      sample.add(tickets.get((int) ((long) i * tickets.size() / samples)));
    }
    status = StatusSample.poll(lines, sample, line, CROWD);
    log(
        "status polls: %d, %d positions match ZRANK + 1",
        status.polled(), status.positionMatches());
    reading("after the status polls", waiting, viaGateway);
    loadAtEnd = Run.loadAverage();
    minutes = (System.nanoTime() - start) / 60e9;
    redisVersion = line.version();
    collector = heap.collector();
    lineLength = line.waiting(CROWD);
    redisUsedMemory = line.usedMemory();
    warnings =
        Files.readAllLines(Path.of(Run.option("gateway.log"))).stream()
            .filter(l -> l.contains(" WARN ") || l.contains(" ERROR "))
            .toList();
  }

  private void reading(String label, long waiting, long viaGateway) {
    HeapReading reading = heap.read(label, waiting, viaGateway);
    readings.add(reading);
    log(
        "heap %s: %.1f MB live, %.1f MB used after GC",
        label, reading.liveBytes() / 1e6, reading.usedBytes() / 1e6);
  }

  private void log(String format, Object... args) {
    System.out.printf(
        "[%4ds] %s%n", (System.nanoTime() - start) / 1_000_000_000L, String.format(format, args));
  }
}
