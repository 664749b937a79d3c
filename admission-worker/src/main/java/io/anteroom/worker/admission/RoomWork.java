package io.anteroom.worker.admission;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.worker.metrics.RoomMeters;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * One tick's room-wide work: for a room with room-wide limits, its admissions across the queues
 * that admit, in one call per batch (room_admit.lua), a call that filled its batch followed by
 * another, up to {@value QueueWork#MAX_CALLS_PER_TICK} per tick; for any room, a reading of its
 * running sessions for the gauge, and whether it is at its limits, which gateways learn from the
 * active-queues hash. Each queue's own work follows in {@link QueueWork}. A failure is logged with
 * {@code room=}, counted and swallowed.
 */
final class RoomWork {

  private final RoomStore rooms;
  private final ActiveQueues active;
  private final QueueWork work;
  private final RoomMeters meters;

  RoomWork(RoomStore rooms, ActiveQueues active, QueueWork work, RoomMeters meters) {
    this.rooms = rooms;
    this.active = active;
    this.work = work;
    this.meters = meters;
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
    Mono<RoomAdmitResult> last =
        policy.budget().limited() && !admitting.isEmpty()
            ? admit(room, policy, admitting)
            : rooms.check(room, policy);
    return last.doOnNext(result -> meters.observe(room, result.activeSessions()))
        .flatMap(result -> active.markFull(room, result.full()))
        .then()
        .onErrorResume(
            error -> {
              work.failed(room, error);
              return Mono.empty();
            });
  }

  /** The room's admission calls of this tick; the last one's result. */
  private Mono<RoomAdmitResult> admit(
      String room, RoomPolicy policy, Map<QueueId, RoomPolicy> queues) {
    return rooms
        .admit(room, policy, queues)
        .expand(
            result ->
                result.admitted() >= policy.admitBatch()
                    ? rooms.admit(room, policy, queues)
                    : Mono.empty())
        .take(QueueWork.MAX_CALLS_PER_TICK)
        .doOnNext(result -> result.queues().forEach(work::record))
        .last();
  }
}
