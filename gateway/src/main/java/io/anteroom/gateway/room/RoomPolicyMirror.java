package io.anteroom.gateway.room;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.RoomSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each room's current settings (YAML plus live overrides of the room and of single queues), re-read
 * periodically ({@link #refresh()}, run by a {@link io.anteroom.gateway.Periodic}), so the request
 * path reads policies from memory. Until the first read, and while Redis cannot be read, rooms keep
 * the last known settings (at first the YAML ones).
 */
public final class RoomPolicyMirror {

  private static final Logger log = LoggerFactory.getLogger(RoomPolicyMirror.class);

  private final RoomPolicies policies;
  private final Map<String, RoomSettings> current = new ConcurrentHashMap<>();
  private final ThrottledWarnings warnings =
      new ThrottledWarnings(log, Clock.systemUTC(), Duration.ofSeconds(10));

  public RoomPolicyMirror(RoomPolicies policies) {
    this.policies = policies;
    for (String room : policies.rooms()) {
      current.put(room, RoomSettings.of(policies.configured(room)));
    }
  }

  /** The room's policy, or null for a room that is not configured. */
  public RoomPolicy policy(String room) {
    RoomSettings settings = current.get(room);
    return settings == null ? null : settings.policy();
  }

  /**
   * The queue's policy (its room's, unless the queue has overrides), or null for an unknown room.
   */
  public RoomPolicy policy(QueueId queue) {
    RoomSettings settings = current.get(queue.room());
    return settings == null ? null : settings.forItem(queue.item());
  }

  /** Re-reads every room's policy now. */
  public Mono<Void> refresh() {
    return Flux.fromIterable(policies.rooms())
        .flatMap(
            room ->
                policies
                    .current(room)
                    .doOnNext(settings -> current.put(room, settings))
                    .onErrorResume(
                        error -> {
                          warnings.warn(
                              room,
                              "room={} live settings could not be read: {}",
                              room,
                              error.toString());
                          return Mono.empty();
                        }))
        .then();
  }
}
