package io.anteroom.worker.admission;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.AdmitBatches;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.worker.metrics.RoomMeters;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;

/**
 * One tick's room-wide work: for a room with room-wide limits and queues that admit, its admissions
 * across them, in one call per batch (room_admit.lua), a call that did a whole batch of work
 * ({@link AdmitBatches}) followed by another, up to {@value AdmitBatches#MAX_CALLS} per tick; for
 * any other room, a reading of its running sessions and measured new users for the gauges and its
 * limits (which also drops sessions idle past the limit), at most once a {@link #CHECK}. Whether a
 * room is at its limits goes to the active-queues hash, where gateways read it. Each queue's own
 * work follows in {@link QueueWork}. A failure is logged with {@code room=}, counted and swallowed.
 */
final class RoomWork {

  /** How often a room that admits nothing across its queues has its sessions read. */
  static final Duration CHECK = Duration.ofSeconds(1);

  private final RoomStore rooms;
  private final ActiveQueues active;
  private final QueueWork work;
  private final RoomMeters meters;
  private final Clock clock;
  private final Map<String, Long> checked = new ConcurrentHashMap<>();
  private final RoomWindows windows;

  RoomWork(RoomStore rooms, ActiveQueues active, QueueWork work, RoomMeters meters, Clock clock) {
    this.rooms = rooms;
    this.active = active;
    this.work = work;
    this.meters = meters;
    this.clock = clock;
    this.windows = new RoomWindows(clock);
  }

  /**
   * Admits across those of {@code queues} that admit when the room is limited, or reads its
   * sessions otherwise. Completes empty even when Redis fails.
   */
  Mono<Void> run(String room, RoomPolicy policy, Map<QueueId, RoomPolicy> queues) {
    Map<QueueId, RoomPolicy> admitting = new LinkedHashMap<>();
    queues.forEach(
        (queue, queuePolicy) -> {
          if (work.admits(queuePolicy)) {
            admitting.put(queue, queuePolicy);
          }
        });
    boolean admits = policy.budget().limited() && !admitting.isEmpty();
    if (!admits && !due(room)) {
      return Mono.empty();
    }
    Mono<RoomAdmitResult> last =
        admits ? admit(room, policy, admitting) : rooms.check(room, policy);
    return last.doOnNext(result -> meters.observe(room, result))
        .flatMap(result -> active.markFull(room, result.full()))
        .then()
        .onErrorResume(
            error -> {
              work.failed(room, error);
              return Mono.empty();
            });
  }

  /**
   * Whether a room that admits nothing this tick is due for a reading of its sessions: one {@link
   * #CHECK} after the last.
   */
  boolean isDue(String room) {
    Long last = checked.get(room);
    return last == null || clock.millis() - last >= CHECK.toMillis();
  }

  /** {@link #isDue}; if so, the reading starts now. */
  private boolean due(String room) {
    if (!isDue(room)) {
      return false;
    }
    checked.put(room, clock.millis());
    return true;
  }

  /**
   * The room's admission calls of this tick; the last one's result. A room with more queues on than
   * {@link RoomWindows#SIZE} is admitted a window at a time: a call that did a whole batch of work,
   * or left the room with places while queues not yet looked at this tick remain, is followed by
   * another.
   */
  private Mono<RoomAdmitResult> admit(
      String room, RoomPolicy policy, Map<QueueId, RoomPolicy> queues) {
    if (!RoomWindows.needed(queues)) {
      return AdmitBatches.of(
              () -> rooms.admit(room, policy, queues),
              result -> result.admitted() + result.abandoned() >= policy.admitBatch())
          .doOnNext(result -> result.queues().forEach(work::record))
          .last();
    }
    windows.tick(room, queues);
    return AdmitBatches.of(
            () -> window(room, policy, queues),
            result ->
                result.admitted() + result.abandoned() >= policy.admitBatch()
                    || (!result.full() && !windows.next(room, queues).isEmpty()))
        .doOnNext(result -> result.queues().forEach(work::record))
        .takeLast(1)
        .next()
        .switchIfEmpty(Mono.defer(() -> rooms.check(room, policy)));
  }

  /** One call across the room's next window; empty when every queue was looked at this tick. */
  private Mono<RoomAdmitResult> window(
      String room, RoomPolicy policy, Map<QueueId, RoomPolicy> queues) {
    Map<QueueId, RoomPolicy> window = windows.next(room, queues);
    if (window.isEmpty()) {
      return Mono.empty();
    }
    return rooms
        .admitWindow(room, policy, window, windows.roomPass(room))
        .doOnNext(result -> windows.read(room, window, result));
  }
}
