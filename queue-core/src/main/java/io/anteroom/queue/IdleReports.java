package io.anteroom.queue;

import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reports of idle lines from the request path, sent to {@link IdleLines} in the background and
 * coalesced: while one batch is on its way, the reports that come in gather for the next, so a
 * flood of new lines costs a call per round trip rather than one per line. At most {@value
 * #MAX_PENDING} reports gather; beyond that each is sent on its own at once, so no line waits
 * unrecorded longer than its call takes. Never blocks, never fails the caller.
 */
final class IdleReports {

  private static final Logger log = LoggerFactory.getLogger(IdleReports.class);

  static final int MAX_PENDING = 256;

  /** One room's reports: the items, and the longest idle time to live among them. */
  private static final class Batch {
    final Set<String> items = new LinkedHashSet<>();
    Duration keep = Duration.ZERO;

    void add(String item, Duration itemKeep) {
      items.add(item);
      if (itemKeep.compareTo(keep) > 0) {
        keep = itemKeep;
      }
    }
  }

  private final IdleLines idle;
  private final Object lock = new Object();
  private final ThrottledWarnings warnings;
  private Map<String, Batch> pending = new HashMap<>();
  private int size;
  private boolean sending;

  /**
   * @param clock the time warnings are rate-limited by
   */
  IdleReports(IdleLines idle, Clock clock) {
    this.idle = idle;
    this.warnings = ThrottledWarnings.of(log, clock);
  }

  /** Reports a write to the keys of {@code item}'s queue in {@code room}, which is off. */
  void report(String room, String item, Duration keep) {
    boolean gathered;
    boolean start = false;
    synchronized (lock) {
      gathered = size < MAX_PENDING;
      if (gathered) {
        Batch batch = pending.computeIfAbsent(room, r -> new Batch());
        batch.add(item, keep);
        size++;
        start = !sending;
        sending = true;
      }
    }
    if (start) {
      send();
    } else if (!gathered) {
      Batch alone = new Batch();
      alone.add(item, keep);
      sent(room, alone).subscribe();
    }
  }

  /** Sends what has gathered, then again until nothing is left. */
  private void send() {
    Map<String, Batch> batches;
    synchronized (lock) {
      if (pending.isEmpty()) {
        sending = false;
        return;
      }
      batches = pending;
      pending = new HashMap<>();
      size = 0;
    }
    Flux.fromIterable(batches.entrySet())
        .concatMap(room -> sent(room.getKey(), room.getValue()))
        .doFinally(signal -> send())
        .subscribe();
  }

  private Mono<Long> sent(String room, Batch batch) {
    return idle.written(room, batch.items, batch.keep)
        .onErrorResume(
            error -> {
              warnings.warn(
                  room + ":idle", "room={} idle lines not recorded: {}", room, error.toString());
              return Mono.empty();
            });
  }
}
