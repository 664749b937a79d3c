package io.anteroom.bench;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

/**
 * Side B, the references: the least Redis work a queue needs, as plain commands on keys of their
 * own; the same pairs inside minimal scripts run by EVALSHA; what a join and an admission with
 * abandonment cannot do without, as scripts of their own (their floors); and a script that only
 * returns, for the fixed cost of any script call. Between admission batches, not measured, the
 * running sets lose their oldest members down to the size the queue model's running set has before
 * a call ({@link #endSessions}), so both sides admit into sets of the same size.
 */
final class RawPhases {

  private static final String WAITING = "raw:{bench:item}:waiting";
  private static final String RUNNING = "raw:{bench:item}:running";
  // Keys shaped like the queue's (line, running, finished, seen, state) for the scripts.
  private static final String[] SCRIPTED = keys("lua");
  private static final String[] FLOOR = keys("floor");
  // Keys of the model's commands without its logic: the queue's five, the room's sessions and
  // budget, the queue's admissions by the line.
  private static final String[] COMMANDS =
      Stream.concat(
              Arrays.stream(keys("commands")),
              Stream.of(
                  "commands:{bench:item}:sessions",
                  "commands:{bench:item}:budget",
                  "commands:{bench:item}:admitted"))
          .toArray(String[]::new);
  private static final String NOW = "1893456000000";

  private final RedisClusterAsyncCommands<String, String> commands;
  private final String pairSha;
  private final String returnOnlySha;
  private final String floorSha;
  private final String admitSha;
  private final String admitFloorSha;
  private final String joinCommandsSha;
  private final String admitCommandsSha;
  private long rawSeq;
  private long scriptedSeq;
  private long commandsCalls;
  private final Map<String, Long> ended = new HashMap<>();

  RawPhases(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
    this.pairSha = load("zadd_nx_zrank.lua");
    this.returnOnlySha = load("return_only.lua");
    this.floorSha = load("join_floor.lua");
    this.admitSha = load("zpopmin_zadd.lua");
    this.admitFloorSha = load("admit_floor.lua");
    this.joinCommandsSha = load("join_commands.lua");
    this.admitCommandsSha = load("admit_commands.lua");
  }

  /** Restarts the sequences; call on a flushed server before a round. */
  void prepare() {
    rawSeq = 0;
    scriptedSeq = 0;
    commandsCalls = 0;
    ended.clear();
  }

  /**
   * Before a B2 batch, not measured: {@code ZREMRANGEBYRANK running 0 -(keep + 1)} on the raw, the
   * scripted, the floor's and the commands' running set and on the commands' sessions and
   * admissions, as sessions ending would, so each keeps at most {@code keep} members (the oldest go
   * first; among the same score, those first by name).
   */
  void endSessions(long keep) {
    for (String running :
        List.of(RUNNING, SCRIPTED[1], FLOOR[1], COMMANDS[1], COMMANDS[5], COMMANDS[7])) {
      long removed = Await.result(commands.zremrangebyrank(running, 0, -(keep + 1)));
      ended.merge(running, removed, Long::sum);
    }
  }

  /** B1 slice: {@code ZADD key NX seq visitor} + {@code ZRANK key visitor} per visitor. */
  long enqueue(List<String> visitors) {
    InFlight pipeline = new InFlight();
    for (String visitor : visitors) {
      double seq = ++rawSeq;
      pipeline.submit(() -> commands.zadd(WAITING, ZAddArgs.Builder.nx(), seq, visitor));
      pipeline.submit(() -> commands.zrank(WAITING, visitor));
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /** B1 by script: the same pair inside {@code zadd_nx_zrank.lua}, one EVALSHA per visitor. */
  long scriptedEnqueue(List<String> visitors) {
    String[] line = {SCRIPTED[0]};
    return InFlight.each(visitors, v -> call(pairSha, line, "" + ++scriptedSeq, v));
  }

  /**
   * The join's floor: {@code join_floor.lua}, the four commands a join needs and nothing else,
   * given the join's five keys and eight arguments, one EVALSHA per visitor.
   */
  long joinFloor(List<String> visitors) {
    return InFlight.each(
        visitors,
        v -> {
          String[] args = {v, NOW, "500.0", "500.0", "2147483647", "0", "", "0"};
          return commands.evalsha(floorSha, ScriptOutputType.MULTI, FLOOR, args);
        });
  }

  /**
   * The join's commands: {@code join_commands.lua}, what {@code join.lua} runs for a newcomer
   * behind others without its logic, given the join's keys and arguments, one EVALSHA per visitor.
   */
  long joinCommands(List<String> visitors) {
    String[] keys = Arrays.copyOf(COMMANDS, 5);
    return InFlight.each(
        visitors,
        v -> {
          String[] args = {v, NOW, "500.0", "500.0", "2147483647", "0", "", "0", "86400000"};
          return commands.evalsha(joinCommandsSha, ScriptOutputType.MULTI, keys, args);
        });
  }

  /**
   * The fixed cost of a script call: {@code return_only.lua} given five keys and five arguments
   * shaped like the enqueue script's, one EVALSHA per visitor.
   */
  long returnOnly(List<String> visitors) {
    return InFlight.each(
        visitors, v -> call(returnOnlySha, SCRIPTED, v, NOW, "500.0", "500.0", "2147483647"));
  }

  /**
   * B2 slice: {@code ZPOPMIN key batch}, then {@code ZADD running now m1 now m2 …} with what it
   * popped, as an admission loop without a script would; returns how many moved.
   */
  long admit(int batch) {
    List<ScoredValue<String>> popped = Await.result(commands.zpopmin(WAITING, batch));
    @SuppressWarnings("unchecked")
    ScoredValue<String>[] entries =
        popped.stream()
            .map(p -> ScoredValue.just(Double.parseDouble(NOW), p.getValue()))
            .toArray(ScoredValue[]::new);
    Await.result(commands.zadd(RUNNING, entries));
    return entries.length;
  }

  /** B2 by script: the same pair inside {@code zpopmin_zadd.lua}, emptying the EVALSHA line. */
  long scriptedAdmit(int batch) {
    return moved(call(admitSha, new String[] {SCRIPTED[0], SCRIPTED[1]}, NOW, "" + batch));
  }

  /**
   * B2 floor: {@code admit_floor.lua} emptying the line the join's floor filled, whose seen entries
   * are all recent, one batch per call; returns how many moved.
   */
  long admitFloor(int batch) {
    return moved(call(admitFloorSha, Arrays.copyOf(FLOOR, 4), NOW, "" + batch, NOW));
  }

  /**
   * B2 model's commands: {@code admit_commands.lua} emptying the line {@link #joinCommands} filled,
   * whose seen entries are all recent, one batch per call, a second after the one before as the
   * model's admission calls are; returns how many moved.
   */
  long admitCommands(int batch) {
    String now = Long.toString(Long.parseLong(NOW) + 1000 * ++commandsCalls);
    return moved(call(admitCommandsSha, COMMANDS, now, "" + batch, NOW));
  }

  /**
   * The reference for memory: {@code visitors} as members of one plain sorted set, the growth of
   * {@code used_memory} over adding them on a flushed server.
   */
  long memberBytes(List<String> visitors) {
    long before = QueuePhases.usedMemory(commands);
    long[] seq = {0};
    InFlight.each(visitors, v -> commands.zadd(WAITING, ++seq[0], v));
    Await.expect("raw waiting", visitors.size(), commands.zcard(WAITING));
    return QueuePhases.usedMemory(commands) - before;
  }

  /**
   * Fails unless the raw, the scripted and the commands' lines hold {@code waiting} visitors, and
   * the raw, the scripted, the floor's and the commands' running sets {@code admitted} less those
   * {@link #endSessions} removed.
   */
  void verify(long waiting, long admitted) {
    Await.expect("raw waiting", waiting, commands.zcard(WAITING));
    Await.expect("scripted waiting", waiting, commands.zcard(SCRIPTED[0]));
    Await.expect("commands' waiting", waiting, commands.zcard(COMMANDS[0]));
    for (String running : List.of(RUNNING, SCRIPTED[1], FLOOR[1], COMMANDS[1])) {
      long left = admitted - ended.getOrDefault(running, 0L);
      Await.expect(running, left, commands.zcard(running));
    }
  }

  private CompletionStage<Long> call(String sha, String[] keys, String... args) {
    return commands.evalsha(sha, ScriptOutputType.INTEGER, keys, args);
  }

  private static long moved(CompletionStage<Long> reply) {
    return Await.result(reply);
  }

  private static String[] keys(String prefix) {
    return Stream.of("waiting", "running", "finished", "seen", "state")
        .map(key -> prefix + ":{bench:item}:" + key)
        .toArray(String[]::new);
  }

  private String load(String name) {
    try (InputStream in = RawPhases.class.getResourceAsStream(name)) {
      return Await.result(
          commands.scriptLoad(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
