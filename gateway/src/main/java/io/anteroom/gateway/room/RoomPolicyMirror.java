package io.anteroom.gateway.room;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.Overrides;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.RoomSettings;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each room's current settings (YAML plus live overrides of the room and of single queues), re-read
 * periodically ({@link #refresh()}, run by a {@link io.anteroom.queue.tick.PeriodicTask}), so the
 * request path reads policies from memory. Until the first read, and while Redis cannot be read,
 * rooms keep the last known settings (at first the YAML ones).
 *
 * <p>A room's failure policy can also be held on this gateway alone ({@link #holdLocally}), for
 * when Redis cannot be written: it is in force at once, as a room override on top of the room's
 * overrides read from Redis (a queue's own failure-policy override still wins for that queue). Once
 * it has been written to Redis ({@link #written}), the next read of the room from Redis replaces
 * it.
 */
public final class RoomPolicyMirror {

  private static final Logger log = LoggerFactory.getLogger(RoomPolicyMirror.class);

  /**
   * A room's failure policy set on this gateway.
   *
   * @param flip this gateway's count of flips when it was set, so a later flip to the same value is
   *     a different hold
   * @param written whether it has been stored in Redis
   */
  public record LocalFailurePolicy(String room, FailurePolicy value, long flip, boolean written) {}

  private final RoomPolicies policies;
  private final Map<String, Overrides> read = new ConcurrentHashMap<>();
  private final Map<String, LocalFailurePolicy> local = new ConcurrentHashMap<>();
  private final Map<String, RoomSettings> current = new ConcurrentHashMap<>();
  private final AtomicLong flips = new AtomicLong();
  private final ThrottledWarnings warnings;

  /**
   * @param clock the time warnings are rate-limited by
   */
  public RoomPolicyMirror(RoomPolicies policies, Clock clock) {
    this.policies = policies;
    this.warnings = ThrottledWarnings.of(log, clock);
    for (String room : policies.rooms()) {
      read.put(room, Overrides.NONE);
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

  /**
   * Puts {@code value} in force for the configured {@code room} on this gateway now, until it has
   * been {@linkplain #written written} and read back.
   */
  public LocalFailurePolicy holdLocally(String room, FailurePolicy value) {
    if (!read.containsKey(room)) {
      throw new IllegalArgumentException("room " + room + " is not configured");
    }
    LocalFailurePolicy held = new LocalFailurePolicy(room, value, flips.incrementAndGet(), false);
    local.put(room, held);
    recompute(room);
    return held;
  }

  /** Notes that {@code held} is stored in Redis; unless a newer flip replaced it meanwhile. */
  public void written(LocalFailurePolicy held) {
    local.replace(
        held.room(), held, new LocalFailurePolicy(held.room(), held.value(), held.flip(), true));
  }

  /** The failure policy held on this gateway for {@code room}, written to Redis or not. */
  public Optional<LocalFailurePolicy> local(String room) {
    return Optional.ofNullable(local.get(room));
  }

  /** The failure policies held on this gateway that are not stored in Redis yet. */
  public List<LocalFailurePolicy> unwritten() {
    return local.values().stream().filter(held -> !held.written()).toList();
  }

  /** Re-reads every room's policy now. */
  public Mono<Void> refresh() {
    return Flux.fromIterable(policies.rooms()).flatMap(this::refresh).then();
  }

  private Mono<Void> refresh(String room) {
    return Mono.defer(
        () -> {
          // A hold written before this read began is in what the read returns.
          LocalFailurePolicy settled = local.get(room);
          return policies
              .overrides(room)
              .doOnNext(
                  overrides -> {
                    read.put(room, overrides);
                    if (settled != null && settled.written()) {
                      local.remove(room, settled);
                    }
                    recompute(room);
                  })
              .then()
              .onErrorResume(
                  error -> {
                    warnings.warn(
                        room,
                        "room={} live settings could not be read: {}",
                        room,
                        error.toString());
                    return Mono.empty();
                  });
        });
  }

  /** The room's settings from the last read and the failure policy held here, if any. */
  private synchronized void recompute(String room) {
    Overrides overrides = read.get(room);
    LocalFailurePolicy held = local.get(room);
    if (held != null) {
      Map<String, String> values = new HashMap<>(overrides.room());
      values.put(PolicyProperty.FAILURE_POLICY.key(), held.value().value());
      overrides = new Overrides(values, overrides.queues());
    }
    current.put(room, policies.apply(room, policies.configured(room), overrides));
  }
}
