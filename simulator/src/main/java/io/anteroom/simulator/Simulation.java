package io.anteroom.simulator;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.LuaScript;
import io.anteroom.queue.script.QueueScripts;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Runs arrivals through the real admission scripts: the gateway's join ({@code join.lua} through
 * {@link io.anteroom.queue.RedisQueueStore}, as for a newcomer), the worker's tick every {@link
 * #TICK} ({@code admit.lua} in batches, then {@code expire.lua}), and the origin's releases ({@code
 * release.lua}), on a Redis of the simulator's own, with a virtual clock: every call carries the
 * moment it stands for, as the scripts take "now" as an argument. Every line of the room is on
 * throughout, as with a queue turned on before the crowd.
 *
 * <p>Calls are sent a window ({@link #WINDOW}) at a time, in the order of the moments they stand
 * for, without waiting for each other: Redis runs them in that order, so each sees what it would
 * have seen. What the simulator learns from the replies (who was admitted, who waits) steers the
 * calls of the next window, at most one window late: a visitor admitted at one moment has their
 * session's activity recorded up to a window later, which ends no session early because a window is
 * far shorter than the session-duration.
 *
 * <p>What is folded to keep a million arrivals fast, without changing what the scripts see:
 *
 * <ul>
 *   <li>A waiting visitor's polls are one write: the {@code seen} time of their last poll (when
 *       they give up, or never). The line reads {@code seen} only to tell who is gone ({@code
 *       admit.lua}), which that one write answers as all the polls would.
 *   <li>An admitted visitor's requests are one write of the session's last activity, dated at their
 *       last request (the write {@code touch.lua} makes to {@code running}, a thousand sessions a
 *       command); the session then idles out after the session-duration as it would. With {@code
 *       release}, one {@code release.lua} call when they leave instead. The room's {@code sessions}
 *       set, read only for room-wide limits, is not kept.
 *   <li>The worker repeats {@code admit.lua} in a tick while a call fills its batch (at most 20
 *       calls); here each tick sends as many calls as the bucket could fill, the later ones
 *       admitting nobody when it could not.
 * </ul>
 *
 * Not simulated: room-wide limits (total active users, new users per minute), which queues an
 * operator or traffic turns on, proof of work and per-address limits, lottery draws (each arrival
 * takes the next place), and the delay until a waiting page's next poll tells an admitted visitor.
 *
 * <p>The calls of one run, and what is learnt from their replies: {@link SimulationRun}.
 */
public final class Simulation {

  /** The worker's tick, {@code anteroom.worker.tick}'s default. */
  public static final Duration TICK = Duration.ofMillis(250);

  /** The virtual time whose calls are sent together. */
  static final Duration WINDOW = Duration.ofSeconds(2);

  /** Where the virtual clock starts. */
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  static final String ROOM = "sim";

  /** The longest a run may take, in virtual time, before it is given up. */
  static final Duration LONGEST = Duration.ofDays(7);

  /** The most admission calls the worker makes for one queue in one tick. */
  static final int MOST_ADMIT_CALLS = 20;

  private static final List<LuaScript> SCRIPTS =
      List.of(QueueScripts.JOIN, QueueScripts.ADMIT, QueueScripts.EXPIRE, QueueScripts.RELEASE);

  private final RedisClusterAsyncCommands<String, String> commands;

  /**
   * @param commands a Redis that holds nothing else: each run starts by deleting everything in it
   */
  public Simulation(RedisClusterAsyncCommands<String, String> commands) {
    this.commands = commands;
  }

  /**
   * Runs {@code arrivals} under {@code policy}.
   *
   * @throws IllegalStateException when the line has not emptied within {@link #LONGEST}
   */
  public Outcome run(
      String label, RoomPolicy policy, Arrivals arrivals, Behaviour behaviour, long seed) {
    await(commands.flushall());
    // Loaded first, so no call falls back to sending its source later, out of order; on the
    // caller's clock, the virtual one the run moves (MutableClock).
    for (LuaScript script : SCRIPTS) {
      await(commands.scriptLoad(script.onCallersClock().source()));
    }
    return new SimulationRun(
            commands, label, policy, arrivals, behaviour, new SplittableRandom(seed))
        .run();
  }

  /** A visitor id of the run: {@code v} and the arrival's index in base 36. */
  static String id(int i) {
    return "v" + Integer.toString(i, 36);
  }

  static int index(String id) {
    return Integer.parseInt(id, 1, id.length(), 36);
  }

  static <T> T await(Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Redis failed: " + e.getCause(), e.getCause());
    }
  }
}
