package io.anteroom.bench.crowd;

import io.anteroom.bench.MachineInfo;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.testing.redis.RedisServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Goals 9 and 10 of the gateway: its heap stays flat with a million visitors waiting, and a burst
 * of new visitors are all put in line, in order, without an error. Starts its own redis-server,
 * stub origin and real gateway process, and writes {@code bench/results/crowd.md}. See {@code
 * bench/README.md}; {@code bench/crowd.sh} runs it.
 */
public final class CrowdBench {

  // The shipped shop room reads its item ids as integers.
  static final QueueId WARMUP = QueueId.of("shop", "9001");
  static final QueueId CROWD = QueueId.of("shop", "9002");

  private final CrowdOptions options;
  private final Path root;
  private final Resources resources;
  private final long start = System.nanoTime();

  private CrowdBench(CrowdOptions options, Path root, Resources resources) {
    this.options = options;
    this.root = root;
    this.resources = resources;
  }

  public static void main(String[] args) throws IOException {
    if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
      System.out.println(CrowdOptions.USAGE);
      return;
    }
    CrowdOptions options;
    try {
      options = CrowdOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Path root = Path.of(System.getProperty("bench.root", ".")).toAbsolutePath().normalize();
    Resources resources = new Resources();
    Runtime.getRuntime().addShutdownHook(new Thread(resources::close, "crowd-cleanup"));
    CrowdResults results;
    try {
      results = new CrowdBench(options, root, resources).run();
    } finally {
      resources.close();
    }
    String markdown = new CrowdReport(results).markdown();
    Path out = root.resolve(options.out());
    Files.createDirectories(out.getParent());
    Files.writeString(out, markdown);
    System.out.println(markdown);
    System.out.println("written to " + out);
    boolean passed = results.passed();
    if (passed) {
      deleteLogs(results.logs());
    } else {
      System.out.println("not every goal was met; the gateway's log is kept in " + results.logs());
    }
    System.exit(passed ? 0 : 1);
  }

  private CrowdResults run() throws IOException {
    MachineInfo machine = MachineInfo.probe();
    Instant started = Instant.now();
    Path jar = GatewayJar.find(root);
    Path work = Files.createTempDirectory("crowd-");
    LoopbackPorts ports = new LoopbackPorts();
    RedisServer redis = resources.add(RedisServer.start());
    String redisVersion = field(redis.command("INFO", "server"), "redis_version");
    log("redis-server " + redisVersion + " at " + redis.uri());
    StubOrigin origin = resources.add(new StubOrigin(ports.pick()));
    GatewayProcess gateway =
        resources.add(
            GatewayProcess.start(
                jar,
                root.resolve("config/anteroom.yml"),
                redis.uri(),
                origin.port(),
                ports,
                options.gatewayHeap(),
                List.of(WARMUP.toString(), CROWD.toString()),
                work.resolve("gateway.log")));
    log("gateway ready (pid " + gateway.pid() + ", log " + gateway.log() + ")");
    RedisConnector connector =
        resources.add(
            RedisConnector.connect(
                new RedisProperties(
                    redis.uri(), Duration.ofSeconds(60), Duration.ofSeconds(5), 1_000_000)));
    RedisLine line = new RedisLine(connector.commands());
    long emptyMemory = line.memory("used_memory");
    Joiner joiner = new Joiner(options.inFlight());
    Lines lines = new Lines(joiner, gateway, line);
    HeapProbe heap = new HeapProbe(gateway.pid());
    List<HeapReading> readings = new ArrayList<>();
    readings.add(reading(heap, "started, nobody waiting", 0, 0));

    WarmUp warmup = lines.warmUp(WARMUP, options.warmup(), options.maxWarmup());
    log(
        String.format(
            "warm-up: %d joins, %.0f/s in the first slice, %.0f/s in the last, other answers: %s",
            warmup.joins(), warmup.firstRate(), warmup.lastRate(), warmup.otherStatuses()));
    readings.add(reading(heap, "after the warm-up (other line)", 0, 0));

    int openers = lines.open(CROWD);
    int ticketEvery = Math.max(1, options.burst() / options.samples());
    List<String> tickets = new ArrayList<>();
    long deadline = System.nanoTime() + options.gatewayBudget().toNanos();
    BurstResult burst = lines.burst(CROWD, options.burst(), ticketEvery, tickets, redis.pid());
    log(
        String.format(
            "burst: %d joins, %.0f/s, %d failures, order %s",
            burst.size(),
            burst.perSecond(),
            burst.failures(),
            burst.order().passed() ? "kept" : "BROKEN"));
    long waiting = burst.lineAfter();
    readings.add(reading(heap, "after the burst", waiting, waiting));

    List<ChunkResult> chunks =
        joinUntil(deadline, waiting, lines, ticketEvery, tickets, heap, readings);
    waiting = chunks.isEmpty() ? waiting : chunks.get(chunks.size() - 1).lineAfter();
    long viaGateway = waiting;
    long direct = options.visitors() - waiting;
    double directSeconds = 0;
    if (direct > 0) {
      long fillStart = System.nanoTime();
      line.fill(CROWD, (int) direct, RoomPolicy.DEFAULTS, options.inFlight());
      directSeconds = (System.nanoTime() - fillStart) / 1e9;
      waiting = line.waiting(CROWD);
      log(
          String.format(
              "wrote %d more straight into Redis in %.1f s; %d waiting",
              direct, directSeconds, waiting));
      readings.add(reading(heap, "after the rest were written into Redis", waiting, viaGateway));
    }
    StatusSample status =
        StatusSample.poll(joiner, lines.status(), spread(tickets, options.samples()), line, CROWD);
    log(
        String.format(
            "status polls: %d, %d positions match ZRANK + 1",
            status.polled(), status.positionMatches()));
    readings.add(reading(heap, "after the status polls", waiting, viaGateway));
    return new CrowdResults(
        options,
        machine,
        MachineInfo.currentLoadAverage(),
        started,
        (System.nanoTime() - start) / 60e9,
        redisVersion,
        GatewayJar.describe(root, jar),
        gateway.commandLine(),
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
        line.memory("used_memory"),
        emptyMemory,
        gateway.warnings(),
        work);
  }

  /**
   * More of the crowd joins through the gateway, a checkpoint's worth at a time with a heap reading
   * after each, until the line holds the whole crowd or the gateway's time is up.
   */
  private List<ChunkResult> joinUntil(
      long deadline,
      long waiting,
      Lines lines,
      int ticketEvery,
      List<String> tickets,
      HeapProbe heap,
      List<HeapReading> readings) {
    List<ChunkResult> chunks = new ArrayList<>();
    while (waiting < options.visitors() && System.nanoTime() < deadline) {
      long next =
          Math.min(options.visitors(), (waiting / options.checkpoint() + 1) * options.checkpoint());
      ChunkResult chunk = lines.chunk(CROWD, (int) (next - waiting), ticketEvery, tickets);
      chunks.add(chunk);
      waiting = chunk.lineAfter();
      log(
          String.format(
              "crowd: %d waiting, %.0f joins/s, other answers: %s",
              waiting, chunk.perSecond(), chunk.otherStatuses()));
      readings.add(reading(heap, "through the gateway", waiting, waiting));
    }
    return chunks;
  }

  private static void deleteLogs(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  private HeapReading reading(HeapProbe heap, String label, long waiting, long viaGateway) {
    HeapReading reading = heap.read(label, waiting, viaGateway);
    log(
        String.format(
            "heap %s: %.1f MB live, %.1f MB used after GC",
            label, reading.liveBytes() / 1e6, reading.usedBytes() / 1e6));
    return reading;
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

  private void log(String message) {
    System.out.printf("[%4ds] %s%n", (System.nanoTime() - start) / 1_000_000_000L, message);
  }

  private static String field(String info, String name) {
    return info.lines()
        .filter(l -> l.startsWith(name + ":"))
        .map(l -> l.substring(name.length() + 1).strip())
        .findFirst()
        .orElse("unknown");
  }
}
