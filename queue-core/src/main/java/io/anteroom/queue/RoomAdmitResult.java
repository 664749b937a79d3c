package io.anteroom.queue;

import java.util.Map;

/**
 * What one admission call across a room's queues did.
 *
 * @param activeSessions the room's active users after the call, each visitor once whatever items
 *     they run in
 * @param admitted visitors admitted by the call, all queues together
 * @param full whether the room is at its room-wide limits, so that every newcomer waits
 * @param newUsersPerMinute the visitors new to the room per minute, measured in Redis over about
 *     the last minute on all of its items (started.lua); 0 until known
 * @param queues what it did in each queue
 * @param passes each queue's pass after the call: the share of the room's places it has had, by its
 *     weight, for the caller to choose the next window of a room with many queues ({@link
 *     RoomStore#admitWindow})
 */
public record RoomAdmitResult(
    long activeSessions,
    long admitted,
    boolean full,
    double newUsersPerMinute,
    Map<QueueId, AdmitResult> queues,
    Map<QueueId, Double> passes) {

  public RoomAdmitResult {
    queues = Map.copyOf(queues);
    passes = Map.copyOf(passes);
  }

  /** Those found gone (abandoned) by the call, all queues together. */
  public long abandoned() {
    return queues.values().stream().mapToLong(AdmitResult::abandoned).sum();
  }

  /** People left in line in the queues of the call, all together. */
  public long waiting() {
    return queues.values().stream().mapToLong(AdmitResult::waiting).sum();
  }
}
