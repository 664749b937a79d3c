package io.anteroom.gateway.line;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.Budget;
import io.anteroom.queue.policy.RoomPolicy;

/**
 * A queue's share of its room, for the waits estimated: the admissions a second it can expect by
 * the settings before its rate has been measured (its {@code admit-per-second}; in a room with a
 * room-wide rate, no more than its weight's share of that rate among the room's queues that are on,
 * as the worker shares the room's admissions, room_admit.lua; once measured, the queue's own rate
 * is its share as it really went), and its share of the places the room frees.
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
    return Math.min(policy.admitPerSecond(), budget.newUsersPerSecond() * share(queue, policy));
  }

  /**
   * The share of its room's places {@code queue} can expect, in (0, 1]: its weight among the room's
   * queues that are on, as the worker shares the places freed (room_admit.lua); 1 in a room without
   * limits.
   */
  public double share(QueueId queue, RoomPolicy policy) {
    Budget budget = policy.budget();
    if (!budget.limited()) {
      return 1;
    }
    double weights = budget.weight();
    for (QueueId other : mirror.activeQueues(queue.room())) {
      if (!other.equals(queue)) {
        weights += policies.policy(other).budget().weight();
      }
    }
    return budget.weight() / weights;
  }
}
