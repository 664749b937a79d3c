package io.anteroom.gateway.line;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.Budget;
import io.anteroom.queue.policy.RoomPolicy;

/**
 * The admissions a second a queue can expect by the settings, for waits estimated before its rate
 * has been measured: its {@code admit-per-second}; in a room with a room-wide rate, no more than
 * its weight's share of that rate among the room's queues that are on, as the worker shares the
 * room's admissions (room_admit.lua). Once measured, the queue's own rate is its share as it really
 * went.
 */
public final class RoomShares {

  private final ActiveQueueMirror mirror;
  private final RoomPolicyMirror policies;

  public RoomShares(ActiveQueueMirror mirror, RoomPolicyMirror policies) {
    this.mirror = mirror;
    this.policies = policies;
  }

  /** The configured rate of {@code queue}, whose policy is {@code policy}, within its room. */
  public double configuredRate(QueueId queue, RoomPolicy policy) {
    Budget budget = policy.budget();
    if (budget.newUsersPerMinute() <= 0) {
      return policy.admitPerSecond();
    }
    double weights = budget.weight();
    for (QueueId other : mirror.activeQueues(queue.room())) {
      if (!other.equals(queue)) {
        weights += policies.policy(other).budget().weight();
      }
    }
    return Math.min(
        policy.admitPerSecond(), budget.newUsersPerSecond() * budget.weight() / weights);
  }
}
