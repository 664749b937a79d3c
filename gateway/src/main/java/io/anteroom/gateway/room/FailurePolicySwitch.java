package io.anteroom.gateway.room;

import io.anteroom.gateway.room.RoomPolicyMirror.LocalFailurePolicy;
import io.anteroom.queue.policy.Choice;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.SettingsStore;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Flips a room's failure policy, with or without Redis. The value is in force on this gateway at
 * once ({@link RoomPolicyMirror#holdLocally}) and is written to the room's live overrides in Redis,
 * where every gateway reads it. When Redis cannot be written, this gateway keeps the value and
 * writes it as soon as Redis answers again ({@link #writeHeld}, run before each read of the live
 * settings); from then on the room follows Redis as before.
 */
public final class FailurePolicySwitch {

  private static final Logger log = LoggerFactory.getLogger(FailurePolicySwitch.class);

  /** Where a flip was stored. */
  public enum Stored implements Choice {
    /** In Redis: every gateway follows within one read of the live settings. */
    REDIS,
    /** On this gateway only, until Redis can be written. */
    LOCAL
  }

  private final RoomPolicyMirror mirror;
  private final SettingsStore store;

  public FailurePolicySwitch(RoomPolicyMirror mirror, SettingsStore store) {
    this.mirror = mirror;
    this.store = store;
  }

  /**
   * Puts {@code value} in force for the configured {@code room} on this gateway and tries to store
   * it in Redis; never fails.
   */
  public Mono<Stored> flip(String room, FailurePolicy value) {
    LocalFailurePolicy held = mirror.holdLocally(room, value);
    return write(held)
        .thenReturn(Stored.REDIS)
        .onErrorResume(
            error -> {
              log.warn(
                  "room={} failure-policy={} holds on this gateway only; it is written to Redis"
                      + " once Redis answers: {}",
                  room,
                  value.value(),
                  error.toString());
              return Mono.just(Stored.LOCAL);
            });
  }

  /** Writes the values this gateway holds that are not in Redis yet; never fails. */
  public Mono<Void> writeHeld() {
    return Flux.fromIterable(mirror.unwritten())
        .concatMap(
            held ->
                write(held)
                    .doOnSuccess(
                        done ->
                            log.info(
                                "room={} failure-policy={} set on this gateway is now stored in"
                                    + " Redis",
                                held.room(),
                                held.value().value()))
                    .onErrorResume(error -> Mono.empty()))
        .then();
  }

  private Mono<Void> write(LocalFailurePolicy held) {
    return store
        .change(
            held.room(),
            null,
            Map.of(PolicyProperty.FAILURE_POLICY.key(), held.value().value()),
            List.of())
        .doOnSuccess(done -> mirror.written(held));
  }
}
