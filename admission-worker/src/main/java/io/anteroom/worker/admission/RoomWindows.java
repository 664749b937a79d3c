package io.anteroom.worker.admission;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of a room's queues one admission call looks at, for a room with more queues on than {@value
 * #SIZE}: a call's work then stays bounded by the window, whatever the number of queues (made-up
 * item ids included). What each queue had waiting and its pass are known from the calls before
 * ({@link RoomAdmitResult}); a window takes first the queues never read, then those with people
 * waiting or not read for a {@link RoomWork#CHECK}, lowest pass first, as the room's places would
 * go (stride scheduling), each at most once a tick. Queues read empty lately wait for their next
 * reading. One instance per worker; each room is worked by one tick at a time.
 */
final class RoomWindows {

  /** Most queues one admission call looks at. */
  static final int SIZE = 16;

  /** What the last call that looked at a queue read of it. */
  private record Known(long waiting, double pass, long readAt) {}

  private final Clock clock;
  private final Map<String, Map<QueueId, Known>> rooms = new ConcurrentHashMap<>();
  private final Map<String, Set<QueueId>> visited = new ConcurrentHashMap<>();

  RoomWindows(Clock clock) {
    this.clock = clock;
  }

  /** Whether a call across all of {@code queues} at once would look at more than {@value #SIZE}. */
  static boolean needed(Map<QueueId, RoomPolicy> queues) {
    return queues.size() > SIZE;
  }

  /** A new tick of {@code room} over {@code queues}: forgets queues no longer among them. */
  void tick(String room, Map<QueueId, RoomPolicy> queues) {
    rooms.computeIfAbsent(room, r -> new ConcurrentHashMap<>()).keySet().retainAll(queues.keySet());
    visited.put(room, new HashSet<>());
  }

  /** The next window of {@code queues}, none visited this tick; empty when none is left. */
  Map<QueueId, RoomPolicy> next(String room, Map<QueueId, RoomPolicy> queues) {
    Map<QueueId, Known> known = rooms.getOrDefault(room, Map.of());
    Set<QueueId> seen = visited.getOrDefault(room, Set.of());
    long fresh = clock.millis() - RoomWork.CHECK.toMillis();
    List<QueueId> candidates = new ArrayList<>();
    for (QueueId queue : queues.keySet()) {
      Known k = known.get(queue);
      if (!seen.contains(queue) && (k == null || k.waiting() > 0 || k.readAt() < fresh)) {
        candidates.add(queue);
      }
    }
    candidates.sort(
        Comparator.comparing((QueueId q) -> known.containsKey(q))
            .thenComparingDouble(q -> known.containsKey(q) ? known.get(q).pass() : 0)
            .thenComparingLong(q -> known.containsKey(q) ? known.get(q).readAt() : 0));
    Map<QueueId, RoomPolicy> window = new LinkedHashMap<>();
    for (QueueId queue : candidates.subList(0, Math.min(SIZE, candidates.size()))) {
      window.put(queue, queues.get(queue));
    }
    return window;
  }

  /**
   * The lowest pass among the room's queues known to have people waiting: the room's pass, which a
   * window cannot see by itself; 0 when none is known.
   */
  double roomPass(String room) {
    return rooms.getOrDefault(room, Map.of()).values().stream()
        .filter(k -> k.waiting() > 0)
        .mapToDouble(Known::pass)
        .min()
        .orElse(0);
  }

  /** What a call across {@code window} read. */
  void read(String room, Map<QueueId, RoomPolicy> window, RoomAdmitResult result) {
    Map<QueueId, Known> known = rooms.computeIfAbsent(room, r -> new ConcurrentHashMap<>());
    Set<QueueId> seen = visited.computeIfAbsent(room, r -> new HashSet<>());
    long now = clock.millis();
    for (QueueId queue : window.keySet()) {
      AdmitResult read = result.queues().get(queue);
      Double pass = result.passes().get(queue);
      if (read != null && pass != null) {
        known.put(queue, new Known(read.waiting(), pass, now));
      }
      seen.add(queue);
    }
  }
}
