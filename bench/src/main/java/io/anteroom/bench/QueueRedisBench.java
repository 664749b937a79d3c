package io.anteroom.bench;

import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * How many Redis microseconds the queue model spends per enqueue and per admitted visitor, next to
 * the raw commands a queue needs at least, all measured on one fresh redis-server in the same run.
 * See {@code bench/README.md}; {@code bench/queue-redis.sh} runs it.
 */
public final class QueueRedisBench {

  private final QueueRedisOptions options;
  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueuePhases queue;
  private final RawPhases raw;

  private QueueRedisBench(
      QueueRedisOptions options, RedisClusterAsyncCommands<String, String> commands) {
    this.options = options;
    this.commands = commands;
    this.queue = new QueuePhases(commands, options.batch());
    this.raw = new RawPhases(commands);
  }

  public static void main(String[] args) throws IOException {
    QueueRedisOptions options = QueueRedisOptions.parse(args);
    String load = Machine.loadAverage();
    CpuTimes cpu = CpuTimes.read();
    List<RoundResult> rounds = new ArrayList<>();
    String redisVersion;
    try (RedisServer server = RedisServer.start();
        RedisConnector redis =
            RedisConnector.connect(
                new RedisProperties(
                    server.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000))) {
      redisVersion =
          server.command("INFO", "server").replaceAll("(?s).*redis_version:(\\S+).*", "$1");
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
    String markdown =
        new QueueRedisReport(options, load, redisVersion, cpu.stealPercentSince(), rounds)
            .markdown();
    System.out.println("\n" + markdown);
    Files.createDirectories(options.out().toAbsolutePath().getParent());
    Files.writeString(options.out(), markdown);
    System.out.println("written to " + options.out().toAbsolutePath());
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
    int inFlight = options.inFlight();
    flush();
    queue.prepare();
    raw.prepare();
    StatsMeter join = meter();
    StatsMeter enqueue = meter();
    StatsMeter rawEnqueue = meter();
    StatsMeter scripted = meter();
    StatsMeter returnOnly = meter();
    StatsMeter floor = meter();
    int turn = seed;
    for (int from = 0; from < n; from += options.slice(), turn++) {
      List<String> part = visitors.subList(from, Math.min(from + options.slice(), n));
      inTurn(
          turn,
          () -> {
            join.measure(() -> queue.join(part, inFlight));
            enqueue.measure(() -> queue.enqueue(part, inFlight));
          },
          () -> {
            rawEnqueue.measure(() -> raw.enqueue(part, inFlight));
            scripted.measure(() -> raw.scriptedEnqueue(part, inFlight));
            returnOnly.measure(() -> raw.returnOnly(part, inFlight));
            floor.measure(() -> raw.joinFloor(part, inFlight));
          });
    }
    queue.verify(n, 0);
    raw.verify(n, 0, n);
    StatsMeter admit = meter();
    StatsMeter rawAdmit = meter();
    StatsMeter scriptedAdmit = meter();
    StatsMeter admitFloor = meter();
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
    StatsMeter trim = meter();
    while (queue.seenLeft()) {
      trim.measure(queue::trim);
    }
    // As many calls again with nothing left to trim: the fixed cost a separate call adds, which
    // in service the trimming shares with the admissions of the moment.
    StatsMeter idle = meter();
    for (int i = 0; i < trim.result().sliceScriptUsec().size(); i++) {
      idle.measure(queue::trim);
    }
    flush();
    long waitingBytes = queue.waitingBytes(visitors, inFlight);
    flush();
    long memberBytes = raw.memberBytes(visitors, inFlight);
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

  private StatsMeter meter() {
    return new StatsMeter(commands);
  }

  /** {@code FLUSHALL}: every phase group starts on an empty server. Loaded scripts stay. */
  private void flush() {
    Await.result(commands.flushall());
  }

  private static void inTurn(int turn, Runnable sideA, Runnable sideB) {
    (Math.floorMod(turn, 2) == 0 ? sideA : sideB).run();
    (Math.floorMod(turn, 2) == 0 ? sideB : sideA).run();
  }

  /** Distinct visitor ids shaped like the gateway's: base64url of 16 random bytes, 22 chars. */
  static List<String> visitors(int count, long seed) {
    Random random = new Random(seed);
    List<String> visitors = new ArrayList<>(count);
    byte[] id = new byte[16];
    for (int i = 0; i < count; i++) {
      random.nextBytes(id);
      visitors.add(Base64.getUrlEncoder().withoutPadding().encodeToString(id));
    }
    return visitors;
  }
}
