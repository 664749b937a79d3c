package io.anteroom.queue.policy;

import java.util.Map;

/**
 * A room's live overrides as operators wrote them, property name to value: those of the room, and
 * those of single queues by item.
 */
public record Overrides(Map<String, String> room, Map<String, Map<String, String>> queues) {

  public static final Overrides NONE = new Overrides(Map.of(), Map.of());

  public Overrides {
    room = Map.copyOf(room);
    queues = Map.copyOf(queues);
  }
}
