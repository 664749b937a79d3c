package io.anteroom.queue.policy;

import java.util.Map;

/**
 * A room's current policy and the policies of those of its queues that have their own overrides.
 *
 * @param policy the room's policy: YAML with the room's live overrides
 * @param queues policy by item, for queues with overrides of their own on top of the room's
 */
public record RoomSettings(RoomPolicy policy, Map<String, RoomPolicy> queues) {

  public RoomSettings {
    queues = Map.copyOf(queues);
  }

  /** A room without queue overrides. */
  public static RoomSettings of(RoomPolicy policy) {
    return new RoomSettings(policy, Map.of());
  }

  /** The policy of the room's queue for {@code item} (a normalised item id). */
  public RoomPolicy forItem(String item) {
    return queues.getOrDefault(item, policy);
  }
}
