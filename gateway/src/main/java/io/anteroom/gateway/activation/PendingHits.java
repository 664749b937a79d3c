package io.anteroom.gateway.activation;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Which of this gateway's request counts go to Redis, so that an item requested a few times costs
 * no script call and no key. An item's count is sent once it reaches a tenth of its room's
 * activation threshold over the window ({@value #SHARE} of {@code activate-above} × window): only
 * then could it matter, since with up to ten gateways sharing an item's traffic evenly each sees at
 * least that much of a crossing. Below that it is kept here and added to later counts until its
 * oldest request has left the window, then dropped. At most {@value #MOST_SENT} items are sent per
 * flush, the largest counts first; the rest wait for the next flush. At most {@code capacity} items
 * are kept, the largest counts.
 *
 * <p>Not thread-safe: one flush at a time uses it.
 */
final class PendingHits {

  /** The share of an item's threshold over the window one gateway counts before sending. */
  static final double SHARE = 0.1;

  /** Most items whose counts one flush sends. */
  static final int MOST_SENT = 1000;

  /** A count to send now. */
  record Due(QueueId queue, long requests, RoomPolicy policy) {}

  /** Requests counted for an item and not sent yet, since the oldest of them (epoch ms). */
  private record Pending(long requests, long since) {}

  private final int capacity;
  private Map<QueueId, Pending> pending = new HashMap<>();

  /**
   * @param capacity most items kept below the share between flushes
   */
  PendingHits(int capacity) {
    this.capacity = capacity;
  }

  /**
   * The counts to send now, largest first, from {@code counts} (the requests since the last flush)
   * and what was kept from earlier flushes. Items whose policy does not activate on traffic (or
   * whose room is unknown) are dropped.
   */
  List<Due> due(Map<QueueId, Long> counts, Function<QueueId, RoomPolicy> policies, long now) {
    Map<QueueId, Pending> all = new HashMap<>();
    pending.forEach(
        (queue, kept) -> {
          RoomPolicy policy = policies.apply(queue);
          if (policy != null && now - kept.since() < policy.activationWindowSeconds() * 1000L) {
            all.put(queue, kept);
          }
        });
    counts.forEach(
        (queue, requests) ->
            all.merge(
                queue,
                new Pending(requests, now),
                (old, added) -> new Pending(old.requests() + added.requests(), old.since())));
    List<Due> due = new ArrayList<>();
    Map<QueueId, Pending> kept = new HashMap<>();
    all.forEach(
        (queue, counted) -> {
          RoomPolicy policy = policies.apply(queue);
          if (policy == null || !policy.activatesOnTraffic()) {
            return;
          }
          if (counted.requests() >= floor(policy)) {
            due.add(new Due(queue, counted.requests(), policy));
          } else {
            kept.put(queue, counted);
          }
        });
    due.sort(Comparator.comparingLong(Due::requests).reversed());
    for (Due later : due.subList(Math.min(MOST_SENT, due.size()), due.size())) {
      kept.put(later.queue(), all.get(later.queue()));
    }
    pending = largest(kept);
    return List.copyOf(due.subList(0, Math.min(MOST_SENT, due.size())));
  }

  /** Requests one gateway counts for an item before sending them; at least 1. */
  static long floor(RoomPolicy policy) {
    return Math.max(
        1, (long) Math.ceil(SHARE * policy.activateAbove() * policy.activationWindowSeconds()));
  }

  /** How many items are kept. */
  int size() {
    return pending.size();
  }

  private Map<QueueId, Pending> largest(Map<QueueId, Pending> kept) {
    if (kept.size() <= capacity) {
      return kept;
    }
    Map<QueueId, Pending> largest = new HashMap<>();
    kept.entrySet().stream()
        .sorted(
            Comparator.comparingLong((Map.Entry<QueueId, Pending> e) -> e.getValue().requests())
                .reversed())
        .limit(capacity)
        .forEach(e -> largest.put(e.getKey(), e.getValue()));
    return largest;
  }
}
