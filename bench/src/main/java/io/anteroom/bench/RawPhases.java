package io.anteroom.bench;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Side B, the references: the least Redis work a queue needs, as plain commands on keys of their
 * own; the enqueue pair once more inside a minimal script run by EVALSHA; and a script that only
 * returns, for the fixed cost of any script call.
 */
final class RawPhases {

  private static final String WAITING = "raw:{bench:item}:waiting";
  private static final String RUNNING = "raw:{bench:item}:running";
  private static final String SCRIPTED = "lua:{bench:item}:waiting";
  private static final String SCRIPTED_RUNNING = "lua:{bench:item}:running";
  private static final String[] RETURN_ONLY_KEYS = {
    "lua:{bench:item}:waiting",
    "lua:{bench:item}:running",
    "lua:{bench:item}:finished",
    "lua:{bench:item}:seen",
    "lua:{bench:item}:state"
  };
  private static final String[] FLOOR_KEYS = {
    "floor:{bench:item}:waiting",
    "floor:{bench:item}:running",
    "floor:{bench:item}:finished",
    "floor:{bench:item}:seen",
    "floor:{bench:item}:state"
  };
  private static final String PAIR_SCRIPT = "zadd_nx_zrank.lua";
  private static final String FLOOR_SCRIPT = "join_floor.lua";
  private static final String ADMIT_SCRIPT = "zpopmin_zadd.lua";
  private static final String ADMIT_FLOOR_SCRIPT = "admit_floor.lua";
  private static final String RETURN_ONLY_SCRIPT = "return_only.lua";
  private static final double ADMIT_TIME = 1_893_456_000_000d;

  /** The last-seen time the join's floor writes. */
  private static final double JOIN_TIME = 1_893_456_000_000d;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final String pairSha;
  private final String returnOnlySha;
  private final String floorSha;
  private final String admitSha;
  private final String admitFloorSha;
  private long rawSeq;
  private long scriptedSeq;

  RawPhases(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
    this.pairSha = Await.result(commands.scriptLoad(readScript(PAIR_SCRIPT)));
    this.returnOnlySha = Await.result(commands.scriptLoad(readScript(RETURN_ONLY_SCRIPT)));
    this.floorSha = Await.result(commands.scriptLoad(readScript(FLOOR_SCRIPT)));
    this.admitSha = Await.result(commands.scriptLoad(readScript(ADMIT_SCRIPT)));
    this.admitFloorSha = Await.result(commands.scriptLoad(readScript(ADMIT_FLOOR_SCRIPT)));
  }

  /** Restarts the sequences; call on a flushed server before a round. */
  void prepare() {
    rawSeq = 0;
    scriptedSeq = 0;
  }

  /** B1 slice: {@code ZADD key NX seq visitor} + {@code ZRANK key visitor} per visitor. */
  long enqueue(List<String> visitors, int inFlight) {
    InFlight pipeline = new InFlight(inFlight);
    ZAddArgs nx = ZAddArgs.Builder.nx();
    for (String visitor : visitors) {
      double seq = ++rawSeq;
      pipeline.submit(() -> commands.zadd(WAITING, nx, seq, visitor));
      pipeline.submit(() -> commands.zrank(WAITING, visitor));
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /** B1 by script: the same pair inside {@value #PAIR_SCRIPT}, one EVALSHA per visitor. */
  long scriptedEnqueue(List<String> visitors, int inFlight) {
    InFlight pipeline = new InFlight(inFlight);
    String[] keys = {SCRIPTED};
    for (String visitor : visitors) {
      String[] args = {Long.toString(++scriptedSeq), visitor};
      pipeline.submit(() -> commands.<Long>evalsha(pairSha, ScriptOutputType.INTEGER, keys, args));
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /**
   * The join's floor: {@value #FLOOR_SCRIPT}, the four commands a join needs and nothing else,
   * given the join's five keys and eight arguments, one EVALSHA per visitor.
   */
  long joinFloor(List<String> visitors, int inFlight) {
    InFlight pipeline = new InFlight(inFlight);
    for (String visitor : visitors) {
      String[] args = {
        visitor, Long.toString((long) JOIN_TIME), "500.0", "500.0", "2147483647", "0", "", "0"
      };
      pipeline.submit(
          () -> commands.<List<Long>>evalsha(floorSha, ScriptOutputType.MULTI, FLOOR_KEYS, args));
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /**
   * The floor: {@value #RETURN_ONLY_SCRIPT} given five keys and five arguments shaped like the
   * enqueue script's, one EVALSHA per visitor.
   */
  long returnOnly(List<String> visitors, int inFlight) {
    InFlight pipeline = new InFlight(inFlight);
    for (String visitor : visitors) {
      String[] args = {visitor, "1893456000000", "500.0", "500.0", "2147483647"};
      pipeline.submit(
          () ->
              commands.<Long>evalsha(
                  returnOnlySha, ScriptOutputType.INTEGER, RETURN_ONLY_KEYS, args));
    }
    pipeline.awaitAll();
    return visitors.size();
  }

  /**
   * B2 slice: {@code ZPOPMIN key batch}, then {@code ZADD running now m1 now m2 …} with what it
   * popped, as an admission loop without a script would; returns how many moved.
   */
  long admit(int batch) {
    List<ScoredValue<String>> popped = Await.result(commands.zpopmin(WAITING, batch));
    if (popped.isEmpty()) {
      throw new IllegalStateException("the raw line is empty");
    }
    @SuppressWarnings("unchecked")
    ScoredValue<String>[] entries = new ScoredValue[popped.size()];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = ScoredValue.just(ADMIT_TIME, popped.get(i).getValue());
    }
    Await.result(commands.zadd(RUNNING, entries));
    return entries.length;
  }

  /**
   * The reference for memory: {@code visitors} as members of one plain sorted set, the growth of
   * {@code used_memory} over adding them on a flushed server.
   */
  long memberBytes(List<String> visitors, int inFlight) {
    long before = QueuePhases.usedMemory(commands);
    InFlight pipeline = new InFlight(inFlight);
    long seq = 0;
    for (String visitor : visitors) {
      double score = ++seq;
      pipeline.submit(() -> commands.zadd(WAITING, score, visitor));
    }
    pipeline.awaitAll();
    Await.expect("raw waiting", visitors.size(), commands.zcard(WAITING));
    return QueuePhases.usedMemory(commands) - before;
  }

  /**
   * B2 by script: the same pair inside {@value #ADMIT_SCRIPT}, emptying the line B1 filled by
   * EVALSHA; returns how many moved.
   */
  long scriptedAdmit(int batch) {
    String[] keys = {SCRIPTED, SCRIPTED_RUNNING};
    String[] args = {Long.toString((long) ADMIT_TIME), Integer.toString(batch)};
    long moved =
        Await.result(commands.<Long>evalsha(admitSha, ScriptOutputType.INTEGER, keys, args));
    if (moved == 0) {
      throw new IllegalStateException("the scripted line is empty");
    }
    return moved;
  }

  /**
   * B2 floor: {@value #ADMIT_FLOOR_SCRIPT} emptying the line the join's floor filled, whose seen
   * entries are all recent, one batch per call; returns how many moved.
   */
  long admitFloor(int batch) {
    String[] keys = {FLOOR_KEYS[0], FLOOR_KEYS[1], FLOOR_KEYS[2], FLOOR_KEYS[3]};
    String[] args = {
      Long.toString((long) ADMIT_TIME), Integer.toString(batch), Long.toString((long) JOIN_TIME)
    };
    long moved =
        Await.result(commands.<Long>evalsha(admitFloorSha, ScriptOutputType.INTEGER, keys, args));
    if (moved == 0) {
      throw new IllegalStateException("the floor's line is empty");
    }
    return moved;
  }

  /** Fails unless the raw line, raw running and scripted line hold these many visitors. */
  void verify(long waiting, long running, long scripted) {
    Await.expect("raw waiting", waiting, commands.zcard(WAITING));
    Await.expect("raw running", running, commands.zcard(RUNNING));
    Await.expect("scripted waiting", scripted, commands.zcard(SCRIPTED));
  }

  private static String readScript(String name) {
    try (InputStream in = RawPhases.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }
}
