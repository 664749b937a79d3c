package io.anteroom.gateway.pass;

import io.anteroom.queue.QueueId;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sessions ended through this gateway: the origin's release, or its failure sending the visitor
 * back to the front of the line. Only those ends add entries, so it holds what this gateway ended
 * within one idle limit of a session, never what requests make up. Each end is kept for the time it
 * is given ({@link SessionChecks} gives one idle limit of the item: every pass confirmed before the
 * end has ended by then), and dropped once that has passed, when the memory is full.
 *
 * <p>Past {@code max} ends even then, the oldest are forgotten down to three quarters of it, and
 * {@link #mayHaveForgotten} answers true for every pass confirmed at or before the latest of them:
 * such a pass is confirmed in Redis, which holds every end ({@code finished}), instead of being let
 * in. Forgetting costs a Redis call per holder and interval, never lets a copy of an ended pass in.
 * Reads take no lock; writes trim under one.
 */
final class ReleasedSessions {

  private record Key(QueueId queue, String visitor) {}

  /**
   * @param atMillis when the session ended
   * @param keepUntilMillis when the entry may go
   */
  private record Ended(long atMillis, long keepUntilMillis) {}

  private final Map<Key, Ended> ended = new ConcurrentHashMap<>();
  private final Clock clock;
  private final int max;

  /** The latest end forgotten before it could go; passes confirmed up to then ask Redis. */
  private volatile long forgottenUpTo = Long.MIN_VALUE;

  ReleasedSessions(Clock clock, int max) {
    this.clock = clock;
    this.max = max;
  }

  /** Records that {@code visitor}'s session in {@code queue} ended now, kept for {@code keep}. */
  void ended(QueueId queue, String visitor, Duration keep) {
    long now = clock.millis();
    ended.put(new Key(queue, visitor), new Ended(now, now + keep.toMillis()));
    if (ended.size() > max) {
      trim(now);
    }
  }

  /** When the session last ended through this gateway, if kept; {@link Long#MIN_VALUE} if not. */
  long endedAt(QueueId queue, String visitor) {
    Ended known = ended.get(new Key(queue, visitor));
    return known == null ? Long.MIN_VALUE : known.atMillis();
  }

  /** Whether an end at or after {@code millis} may have been forgotten to keep the bound. */
  boolean mayHaveForgotten(long millis) {
    return millis <= forgottenUpTo;
  }

  /** Ends kept now. */
  int size() {
    return ended.size();
  }

  private synchronized void trim(long now) {
    if (ended.size() <= max) {
      return;
    }
    ended.values().removeIf(end -> end.keepUntilMillis() <= now);
    int keep = max - max / 4;
    if (ended.size() <= keep) {
      return;
    }
    List<Map.Entry<Key, Ended>> oldest = new ArrayList<>(ended.entrySet());
    oldest.sort(Comparator.comparingLong(entry -> entry.getValue().atMillis()));
    List<Map.Entry<Key, Ended>> forgotten = oldest.subList(0, oldest.size() - keep);
    // Raised before the ends go, so no reader ever finds neither.
    forgottenUpTo =
        Math.max(forgottenUpTo, forgotten.get(forgotten.size() - 1).getValue().atMillis());
    for (Map.Entry<Key, Ended> entry : forgotten) {
      ended.remove(entry.getKey(), entry.getValue());
    }
  }
}
