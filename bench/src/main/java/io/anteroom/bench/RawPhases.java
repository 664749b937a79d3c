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
 * The references: the least Redis work a queue needs, as plain commands on keys of their own, and
 * the enqueue pair once more inside a minimal script run by EVALSHA.
 */
final class RawPhases {

  private static final String WAITING = "raw:{bench:item}:waiting";
  private static final String RUNNING = "raw:{bench:item}:running";
  private static final String SCRIPTED = "lua:{bench:item}:waiting";
  private static final String REFERENCE_SCRIPT = "zadd_nx_zrank.lua";
  private static final double ADMIT_TIME = 1_893_456_000_000d;

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ServerStats stats;
  private final String referenceSha;

  RawPhases(RedisClusterAsyncCommands<String, String> commands, ServerStats stats) {
    this.commands = commands;
    this.stats = stats;
    this.referenceSha = Await.result(commands.scriptLoad(readScript()));
  }

  /** B1: {@code ZADD key NX seq visitor} and {@code ZRANK key visitor} for every visitor. */
  PhaseResult enqueue(List<String> visitors, int inFlight) {
    stats.reset();
    InFlight pipeline = new InFlight(inFlight);
    ZAddArgs nx = ZAddArgs.Builder.nx();
    for (int i = 0; i < visitors.size(); i++) {
      String visitor = visitors.get(i);
      double seq = i + 1;
      pipeline.submit(() -> commands.zadd(WAITING, nx, seq, visitor));
      pipeline.submit(() -> commands.zrank(WAITING, visitor));
    }
    pipeline.awaitAll();
    PhaseResult result = new PhaseResult(visitors.size(), stats.read());
    Await.expect("raw waiting after ZADD", visitors.size(), commands.zcard(WAITING));
    return result;
  }

  /** B1 by script: the same pair inside {@value #REFERENCE_SCRIPT}, one EVALSHA per visitor. */
  PhaseResult scriptedEnqueue(List<String> visitors, int inFlight) {
    stats.reset();
    InFlight pipeline = new InFlight(inFlight);
    String[] keys = {SCRIPTED};
    for (int i = 0; i < visitors.size(); i++) {
      String[] args = {Integer.toString(i + 1), visitors.get(i)};
      pipeline.submit(
          () -> commands.<Long>evalsha(referenceSha, ScriptOutputType.INTEGER, keys, args));
    }
    pipeline.awaitAll();
    PhaseResult result = new PhaseResult(visitors.size(), stats.read());
    Await.expect("scripted waiting after EVALSHA", visitors.size(), commands.zcard(SCRIPTED));
    return result;
  }

  /**
   * B2: empties the line left by {@link #enqueue} with {@code ZPOPMIN key batch} followed by
   * {@code ZADD running now m1 now m2 …}, one batch after the other as an admission loop would.
   */
  PhaseResult admit(long waiting, int batch) {
    stats.reset();
    long moved = 0;
    // Stops at the known length, so no empty ZPOPMIN is counted; the admit script never makes one.
    while (moved < waiting) {
      List<ScoredValue<String>> popped = Await.result(commands.zpopmin(WAITING, batch));
      if (popped.isEmpty()) {
        throw new IllegalStateException("raw line empty after " + moved + " of " + waiting);
      }
      @SuppressWarnings("unchecked")
      ScoredValue<String>[] entries = new ScoredValue[popped.size()];
      for (int i = 0; i < entries.length; i++) {
        entries[i] = ScoredValue.just(ADMIT_TIME, popped.get(i).getValue());
      }
      Await.result(commands.zadd(RUNNING, entries));
      moved += entries.length;
    }
    PhaseResult result = new PhaseResult(moved, stats.read());
    Await.expect("raw running after admit", waiting, commands.zcard(RUNNING));
    return result;
  }

  private static String readScript() {
    try (InputStream in = RawPhases.class.getResourceAsStream(REFERENCE_SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + REFERENCE_SCRIPT);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + REFERENCE_SCRIPT, e);
    }
  }
}
