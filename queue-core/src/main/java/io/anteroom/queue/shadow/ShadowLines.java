package io.anteroom.queue.shadow;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * The virtual lines of queues in shadow mode ({@code Mode.SHADOW}): everyone passes, and the
 * newcomers who would have waited join a line of their own that the worker admits from with the
 * queue's settings, so operators see who would have waited and for how long. A virtual line lives
 * in keys of its own ({@code QueueKeys#shadow()}), so nothing done to it can create or move a
 * ticket, a pass or a place of a real line. Its keys carry a time to live, refreshed by every join
 * and tick, so they go away by themselves once the mode or the queue is off.
 *
 * <p>Nobody polls a virtual line, so it cannot know who would have given up: its visitors wait
 * until admitted ({@link #virtual(RoomPolicy)}). Callers run every call off the visitor's path.
 */
public interface ShadowLines {

  /** Most would-be waits kept per queue, newest first; the quantiles are over these. */
  int WAITS_KEPT = 1000;

  /**
   * Most people a virtual line holds. Nobody leaves a virtual line but by its admissions, so a join
   * beyond is counted and not kept: whatever arrives during a dry run, its keys stay within a few
   * megabytes a queue.
   */
  long MAX_WAITING = 20_000;

  /** The abandon-after of a virtual line: nobody polls it, so nobody is taken as gone. */
  Duration NEVER_ABANDONED = Duration.ofDays(3650);

  /** {@code policy} as a virtual line applies it: the same, except that nobody is abandoned. */
  static RoomPolicy virtual(RoomPolicy policy) {
    return policy.withAbandonAfter(NEVER_ABANDONED);
  }

  /**
   * Puts {@code visitor}, an id minted for the join, in the virtual line of {@code queue} under
   * {@code policy} as {@link #virtual} applies it, unless the line holds {@value #MAX_WAITING}
   * already.
   *
   * @return true when joined, false when the line was full and the join only counted
   */
  Mono<Boolean> join(QueueId queue, String visitor, RoomPolicy policy);

  /**
   * The store of the virtual lines: joins (join.lua, an id minted for the call), admissions and
   * expiry as on a real line, over the shadow keys only.
   */
  QueueStore store();

  /**
   * Records the waits of those the virtual line of {@code queue} admitted since the last call
   * (shadow_waits.lua), and gives its keys the idle time to live of {@code policy}; for the worker,
   * once per tick after its admissions.
   *
   * @return how many waits were recorded
   */
  Mono<Long> recordWaits(QueueId queue, RoomPolicy policy);

  /** The last {@value #WAITS_KEPT} would-be waits of the queue's virtual line, as quantiles. */
  Mono<WaitQuantiles> waits(QueueId queue);
}
