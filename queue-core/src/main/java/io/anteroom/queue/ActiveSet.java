package io.anteroom.queue;

import java.util.Map;
import java.util.Set;

/**
 * What the active-queues hash holds: the queues that are on, with why, and the rooms at their
 * room-wide limits, whose newcomers all wait.
 */
public record ActiveSet(Map<QueueId, Activation> queues, Set<String> fullRooms) {

  public ActiveSet {
    queues = Map.copyOf(queues);
    fullRooms = Set.copyOf(fullRooms);
  }
}
