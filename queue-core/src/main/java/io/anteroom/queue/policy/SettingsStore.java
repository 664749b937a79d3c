package io.anteroom.queue.policy;

import java.util.Collection;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * Live overrides of a room's policy and of its single queues, written by operators and read by
 * gateways and workers. Callers validate values with {@link PolicyParser} before writing.
 */
public interface SettingsStore {

  /** The room's overrides; empty maps when there are none. */
  Mono<Overrides> overrides(String room);

  /**
   * Sets overrides of the room ({@code item} null) or of one of its queues.
   *
   * @param values property name to value
   */
  Mono<Void> put(String room, String item, Map<String, String> values);

  /** Removes overrides of the room ({@code item} null) or of one queue, back to what is below. */
  Mono<Void> remove(String room, String item, Collection<String> properties);

  /**
   * Removes and sets overrides of the room ({@code item} null) or of one queue in one atomic step:
   * a failed call changes nothing.
   */
  Mono<Void> change(String room, String item, Map<String, String> set, Collection<String> remove);
}
