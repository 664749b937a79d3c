package io.anteroom.bench;

import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;

/**
 * How many Redis microseconds the queue model spends per enqueue and per admitted visitor, next to
 * the raw commands a queue needs at least, all measured on one fresh redis-server in the same run.
 * See {@code bench/README.md}; {@code bench/queue-redis.sh} runs it.
 */
public final class QueueRedisBench {

  private final BenchOptions options;
  private final ServerStats stats;
  private final QueuePhases queue;
  private final RawPhases raw;

  private QueueRedisBench(
      BenchOptions options, RedisClusterAsyncCommands<String, String> commands) {
    this.options = options;
    this.stats = new ServerStats(commands);
    this.queue = new QueuePhases(commands, options.batch());
    this.raw = new RawPhases(commands);
  }

  public static void main(String[] args) throws IOException {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    MachineInfo machine = MachineInfo.probe();
    Optional<CpuTimes> cpuBefore = CpuTimes.read();
    List<RoundResult> rounds = new ArrayList<>();
    String redisVersion;
    try (RedisServer server = RedisServer.start();
        RedisConnector redis =
            RedisConnector.connect(
                new RedisProperties(
                    server.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000))) {
      redisVersion = infoField(server.command("INFO", "server"), "redis_version");
      System.out.println("redis-server " + redisVersion + " at " + server.uri());
      QueueRedisBench bench = new QueueRedisBench(options, redis.commands());
      for (int round = 1 - options.warmup(); round <= options.rounds(); round++) {
        RoundResult result = bench.round(Math.max(round, 0), round);
        System.out.println(QueueRedisReport.roundLine(result));
        if (round >= 1) {
          rounds.add(result);
        }
      }
    }
    OptionalDouble steal =
        cpuBefore
            .flatMap(before -> CpuTimes.read().map(after -> after.stealPercentSince(before)))
            .map(OptionalDouble::of)
            .orElse(OptionalDouble.empty());
    QueueRedisReport report =
        new QueueRedisReport(options, machine, redisVersion, steal, Instant.now(), rounds);
    String markdown = report.markdown();
    System.out.println();
    System.out.println(markdown);
    Path out = options.out().toAbsolutePath();
    Files.createDirectories(out.getParent());
    Files.writeString(out, markdown);
    System.out.println("written to " + out);
  }

  /**
   * One round on a flushed server. The sides take turns slice by slice: a slice of visitors joins
   * each line (A1 by join and by enqueue, then B1 raw, by EVALSHA, return-only and the join's
   * floor), then one admission call alternates with one raw batch (A2, B2), then admission calls
   * trim the admitted visitors' seen entries once they are stale (part of A2). Which side starts
   * alternates between rounds. Last, memory: the visitors waiting in a fresh line against as many
   * plain members.
   */
  private RoundResult round(int number, int seed) {
    List<String> visitors = visitors(options.visitors(), seed);
    int n = visitors.size();
    stats.flush();
    queue.prepare();
    raw.prepare();
    StatsMeter join = new StatsMeter(stats);
    StatsMeter enqueue = new StatsMeter(stats);
    StatsMeter rawEnqueue = new StatsMeter(stats);
    StatsMeter scripted = new StatsMeter(stats);
    StatsMeter returnOnly = new StatsMeter(stats);
    StatsMeter floor = new StatsMeter(stats);
    int turn = seed;
    for (int from = 0; from < n; from += options.slice(), turn++) {
      List<String> part = visitors.subList(from, Math.min(from + options.slice(), n));
      inTurn(
          turn,
          () -> {
            join.measure(() -> queue.join(part, options.inFlight()));
            enqueue.measure(() -> queue.enqueue(part, options.inFlight()));
          },
          () -> {
            rawEnqueue.measure(() -> raw.enqueue(part, options.inFlight()));
            scripted.measure(() -> raw.scriptedEnqueue(part, options.inFlight()));
            returnOnly.measure(() -> raw.returnOnly(part, options.inFlight()));
            floor.measure(() -> raw.joinFloor(part, options.inFlight()));
          });
    }
    queue.verify(n, 0);
    raw.verify(n, 0, n);
    StatsMeter admit = new StatsMeter(stats);
    StatsMeter rawAdmit = new StatsMeter(stats);
    StatsMeter scriptedAdmit = new StatsMeter(stats);
    StatsMeter admitFloor = new StatsMeter(stats);
    for (turn = seed; admit.operations() < n || rawAdmit.operations() < n; turn++) {
      inTurn(
          turn,
          () -> {
            if (admit.operations() < n) {
              admit.measure(queue::admit);
            }
          },
          () -> {
            if (rawAdmit.operations() < n) {
              rawAdmit.measure(() -> raw.admit(options.batch()));
              scriptedAdmit.measure(() -> raw.scriptedAdmit(options.batch()));
              admitFloor.measure(() -> raw.admitFloor(options.batch()));
            }
          });
    }
    queue.verify(0, n);
    raw.verify(0, n, 0);
    queue.ageSeen();
    StatsMeter trim = new StatsMeter(stats);
    while (queue.seenLeft()) {
      trim.measure(queue::trim);
    }
    // As many calls again with nothing left to trim: the fixed cost a separate call adds, which
    // in service the trimming shares with the admissions of the moment.
    StatsMeter idle = new StatsMeter(stats);
    for (int i = 0; i < trim.result().sliceScriptUsec().size(); i++) {
      idle.measure(queue::trim);
    }
    stats.flush();
    long waitingBytes = queue.waitingBytes(visitors, options.inFlight());
    stats.flush();
    long memberBytes = raw.memberBytes(visitors, options.inFlight());
    return new RoundResult(
        number,
        Math.floorMod(seed, 2) == 0 ? "A,B" : "B,A",
        join.result(),
        enqueue.result(),
        admit.result(),
        trim.result(),
        idle.result(),
        rawEnqueue.result(),
        scripted.result(),
        rawAdmit.result(),
        scriptedAdmit.result(),
        admitFloor.result(),
        returnOnly.result(),
        floor.result(),
        (double) waitingBytes / n,
        (double) memberBytes / n);
  }

  private static void inTurn(int turn, Runnable sideA, Runnable sideB) {
    if (Math.floorMod(turn, 2) == 0) {
      sideA.run();
      sideB.run();
    } else {
      sideB.run();
      sideA.run();
    }
  }

  /** Distinct visitor ids shaped like the gateway's: base64url of 16 random bytes, 22 chars. */
  static List<String> visitors(int count, long seed) {
    Random random = new Random(seed);
    Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
    List<String> visitors = new ArrayList<>(count);
    byte[] id = new byte[16];
    for (int i = 0; i < count; i++) {
      random.nextBytes(id);
      visitors.add(encoder.encodeToString(id));
    }
    return visitors;
  }

  private static String infoField(String info, String field) {
    return info.lines()
        .filter(l -> l.startsWith(field + ":"))
        .map(l -> l.substring(field.length() + 1).strip())
        .findFirst()
        .orElse("unknown");
  }
}
