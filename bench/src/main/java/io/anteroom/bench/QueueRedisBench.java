package io.anteroom.bench;

import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * How many Redis microseconds the queue model spends per enqueue and per admitted visitor, next to
 * the raw commands a queue needs at least, all measured on one fresh redis-server in the same run.
 * See {@code bench/README.md}; {@code bench/queue-redis.sh} runs it.
 */
public final class QueueRedisBench {

  /** Visitors per measured enqueue slice; the two sides take turns slice by slice. */
  private static final int SLICE = 1000;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final int batch = Run.number("batch");
  private final QueuePhases queue;
  private final QueuePhases grown;
  private final RoomPhases room;
  private final RawPhases raw;

  private QueueRedisBench(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
    this.queue = new QueuePhases(commands, batch);
    this.grown = QueuePhases.growing(commands, batch);
    this.room = new RoomPhases(commands, batch, Run.number("visitors"));
    this.raw = new RawPhases(commands);
  }

  public static void main(String[] args) throws IOException {
    String load = Run.loadAverage();
    long[] cpu = Run.cpuTicks();
    int warmup = Run.number("warmup");
    List<Round> rounds = new ArrayList<>();
    String redisVersion;
    QueueRedisBench bench;
    try (RedisServer server = RedisServer.start();
        RedisConnector redis =
            RedisConnector.connect(
                new RedisProperties(
                    server.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000))) {
      redisVersion =
          server.command("INFO", "server").replaceAll("(?s).*redis_version:(\\S+).*", "$1");
      System.out.println("redis-server " + redisVersion + " at " + server.uri());
      bench = new QueueRedisBench(redis.commands());
      for (int round = 1 - warmup; round <= Run.number("rounds"); round++) {
        Round result = bench.round(Math.max(round, 0), round);
        System.out.println(QueueRedisReport.roundLine(result));
        if (round >= 1) {
          rounds.add(result);
        }
      }
    }
    long[] now = Run.cpuTicks();
    double steal = now[1] > cpu[1] ? 100.0 * (now[0] - cpu[0]) / (now[1] - cpu[1]) : Double.NaN;
    String workload =
        String.format(
            "%d rounds after %d discarded warm-up; %d visitors per phase; admit batch %d (the"
                + " room's: one batch over %d queues); sessions of %d s ended between admission"
                + " calls, running sets (the room's sessions) at most %d members before a call;"
                + " enqueue slices of %d visitors; %d commands in flight",
            rounds.size(),
            warmup,
            Run.number("visitors"),
            Run.number("batch"),
            RoomPhases.ITEMS,
            QueuePhases.SESSION.toSeconds(),
            bench.queue.runningBeforeCall(),
            SLICE,
            InFlight.LIMIT);
    String markdown = new QueueRedisReport(rounds).markdown(load, redisVersion, steal, workload);
    System.out.println("\n" + markdown);
    Path out = Path.of(Run.option("out"));
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, markdown);
    System.out.println("written to " + out.toAbsolutePath());
  }

  /**
   * One round on a flushed server. The sides take turns slice by slice: a slice of visitors joins
   * each line (A1 by join and by enqueue, then B1 raw, by EVALSHA, return-only, the join's floor
   * and the join's commands), then one admission call alternates with one raw batch (A2, B2), then
   * admission calls trim the admitted visitors' seen entries once they are stale (part of A2). In
   * A2 the room's admission across its queues, whose lines hold the same visitors, takes turns with
   * the one queue's: a call of each, the one queue's first when side A starts; then a call on the
   * queue whose sessions never end ({@code admitGrowing}). Before every admission call or batch,
   * not measured, sessions idle for longer than {@link QueuePhases#SESSION} end ({@code
   * expire.lua}; on side B, the running sets lose as many of their oldest members), as in service.
   * Which side starts alternates between rounds. Last, memory: the visitors waiting in a fresh line
   * against as many plain members.
   */
  private Round round(int number, int seed) {
    List<String> visitors = visitors(Run.number("visitors"), seed);
    int n = visitors.size();
    flush();
    queue.prepare();
    grown.prepare();
    room.prepare();
    raw.prepare();
    Map<String, Phase> p = new HashMap<>();
    for (String name : Round.PHASES) {
      p.put(name, new Phase(commands));
    }
    int turn = seed;
    for (int from = 0; from < n; from += SLICE, turn++) {
      List<String> part = visitors.subList(from, Math.min(from + SLICE, n));
      inTurn(
          turn,
          () -> {
            p.get("join").measure(() -> queue.join(part));
            p.get("enqueue").measure(() -> queue.enqueue(part));
          },
          () -> {
            p.get("rawEnqueue").measure(() -> raw.enqueue(part));
            p.get("scriptedEnqueue").measure(() -> raw.scriptedEnqueue(part));
            p.get("returnOnly").measure(() -> raw.returnOnly(part));
            p.get("joinFloor").measure(() -> raw.joinFloor(part));
            p.get("joinCommands").measure(() -> raw.joinCommands(part));
          });
    }
    queue.verify(n, 0);
    raw.verify(n, 0);
    room.fill(visitors);
    room.verify(n, 0);
    grown.join(visitors);
    grown.verify(n, 0);
    Phase admit = p.get("admit");
    Phase roomAdmit = p.get("roomAdmit");
    Phase growing = p.get("admitGrowing");
    Phase rawAdmit = p.get("rawAdmit");
    long keep = queue.runningBeforeCall();
    for (turn = seed;
        admit.operations < n || roomAdmit.operations < n || rawAdmit.operations < n;
        turn++) {
      int now = turn;
      inTurn(
          turn,
          () -> {
            inTurn(
                now,
                () -> upTo(n, admit, queue::step, queue::admit),
                () -> upTo(n, roomAdmit, room::step, room::admit));
            upTo(n, growing, grown::step, grown::admit);
          },
          () -> {
            if (rawAdmit.operations < n) {
              raw.endSessions(keep);
              rawAdmit.measure(() -> raw.admit(batch));
              p.get("scriptedAdmit").measure(() -> raw.scriptedAdmit(batch));
              p.get("admitFloor").measure(() -> raw.admitFloor(batch));
              p.get("admitCommands").measure(() -> raw.admitCommands(batch));
            }
          });
    }
    queue.verify(0, n);
    room.verify(0, n);
    grown.verify(0, n);
    raw.verify(0, n);
    // An hour later every session has ended: expire.lua, not measured, empties the running sets
    // and the room's sessions before the trimming calls, as the worker's ticks would have.
    queue.ageSeen();
    room.ageSeen();
    queue.endSessions();
    room.endSessions();
    queue.verify(0, n);
    for (turn = seed; queue.seenLeft() || room.seenLeft(); turn++) {
      inTurn(
          turn,
          () -> {
            if (queue.seenLeft()) {
              p.get("trim").measure(queue::trim);
            }
          },
          () -> {
            if (room.seenLeft()) {
              p.get("roomTrim").measure(room::trim);
            }
          });
    }
    // As many calls again with nothing left to trim: the fixed cost a separate call adds, which
    // in service the trimming shares with the admissions of the moment.
    for (int i = 0; i < p.get("trim").sliceScriptUsec.size(); i++) {
      p.get("idle").measure(queue::trim);
    }
    for (int i = 0; i < p.get("roomTrim").sliceScriptUsec.size(); i++) {
      p.get("roomIdle").measure(room::trim);
    }
    room.verify(0, n);
    flush();
    long waitingBytes = queue.waitingBytes(visitors);
    flush();
    long memberBytes = raw.memberBytes(visitors);
    String order = Math.floorMod(seed, 2) == 0 ? "A,B" : "B,A";
    return new Round(number, order, p, (double) waitingBytes / n, (double) memberBytes / n);
  }

  /** {@code FLUSHALL}: every phase group starts on an empty server. Loaded scripts stay. */
  private void flush() {
    Await.result(commands.flushall());
  }

  /**
   * One more slice of {@code phase}, after {@code before} (not measured), unless it has its {@code
   * n} operations already.
   */
  private static void upTo(int n, Phase phase, Runnable before, LongSupplier slice) {
    if (phase.operations < n) {
      before.run();
      phase.measure(slice);
    }
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
