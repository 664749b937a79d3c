package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import java.util.Collection;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The operations on a room as a whole: its admissions across queues within the room-wide limits,
 * its count of active users (each visitor once, whatever items they opened), whether it is at its
 * limits, and its figures against them. Each is one Redis round trip, atomic and safe to repeat.
 */
public interface RoomStore {

  /**
   * Admits across {@code queues}, all of one room, within the room's limits (those of {@code room})
   * and each queue's own, sharing the room's places among the queues with people waiting by their
   * weights.
   *
   * @param room the room's policy, whose {@link io.anteroom.queue.policy.Budget} is limited
   * @param queues the queues to admit from, with each one's policy
   */
  Mono<RoomAdmitResult> admit(String roomName, RoomPolicy room, Map<QueueId, RoomPolicy> queues);

  /**
   * {@link #admit} across a window of the room's queues that the caller chose, for a room with more
   * queues on than one call should look at: the call's work is bounded by the window, whatever the
   * number of queues. The room's places go to the window's queues by their passes; the room's own
   * pass is raised to {@code roomPass}, never set from the window alone.
   *
   * @param roomPass the lowest pass among all of the room's queues with people waiting, as the
   *     caller knows it from earlier calls ({@link RoomAdmitResult#passes()}); 0 when not known
   */
  Mono<RoomAdmitResult> admitWindow(
      String roomName, RoomPolicy room, Map<QueueId, RoomPolicy> window, double roomPass);

  /**
   * The room's running sessions on all of its items, after dropping those idle past the room's
   * {@link RoomPolicy#sessionIdleLimit()}, and whether it is at its limits: an admission call that
   * admits nobody.
   */
  Mono<RoomAdmitResult> check(String roomName, RoomPolicy room);

  /**
   * How many people wait in each of {@code queues}, all of one room, read now (one {@code ZCARD}
   * each, sent together; not one atomic reading).
   */
  Mono<Map<QueueId, Long>> waiting(String roomName, Collection<QueueId> queues);

  /**
   * The room's figures against its limits, read without changing anything: its running sessions not
   * idle past the room's {@link RoomPolicy#sessionIdleLimit()}, its measured new users per minute,
   * the people waiting in {@code queues} and its full mark.
   *
   * @param queues queues of the room whose lines to count, such as those that are on
   */
  Mono<RoomTotals> totals(String roomName, RoomPolicy room, Collection<QueueId> queues);

  /**
   * Lets {@code visitor} into {@code queue}, whose queue is off, as a session of the item and an
   * active user of its room: at once when the visitor is an active user of the room already (in any
   * of its items), otherwise only if the room is not at its limits, taking one of its places. For
   * rooms whose {@link io.anteroom.queue.policy.Budget} is limited. The room's users are counted
   * and trimmed by the room's own policy, never the queue's.
   *
   * @param policy the queue's policy (its session length)
   * @param room the room's policy (its limits, its session length and scope)
   * @return true when the visitor may enter, false when the room is at its limits
   */
  Mono<Boolean> enter(QueueId queue, String visitor, RoomPolicy policy, RoomPolicy room);
}
