package io.anteroom.queue.policy;

import java.util.Map;
import reactor.core.publisher.Mono;

/** Live overrides of a room's policy, written by operators and read by gateways and workers. */
public interface SettingsStore {

  /** The room's overrides, property name to value; empty when there are none. */
  Mono<Map<String, String>> overrides(String room);

  /** Sets overrides; callers validate them first with {@link PolicyParser}. */
  Mono<Void> put(String room, Map<String, String> values);
}
