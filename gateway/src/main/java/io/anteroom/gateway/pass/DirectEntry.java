package io.anteroom.gateway.pass;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import reactor.core.publisher.Mono;

/**
 * Lets a visitor into an item whose queue is off, or renews the pass of one inside it, counting
 * them in Redis as a session of the item and an active user of the room. In a room without
 * room-wide limits at once, with no Redis call on the way: the pass is counted afterwards,
 * registered in batches ({@link PassRegistrar}). In a room with limits only once Redis has said so
 * (enter.lua): at once for a visitor who is an active user of the room already, otherwise by taking
 * one of the room's places, so that no gateway lets anyone past a room at its limits which it does
 * not yet know is full, and the room's rate and total active users hold across any number of
 * gateways. A refusal marks the room full in this gateway's mirror until its next reading: the
 * visitor and those after wait in line, whose queue then turns on.
 */
public final class DirectEntry {

  private static final Mono<Boolean> IN = Mono.just(true);

  private final RoomStore rooms;
  private final RedisGuard redis;
  private final PassRegistrar registrar;
  private final ActiveQueueMirror mirror;
  private final RoomPolicyMirror policies;

  public DirectEntry(
      RoomStore rooms,
      RedisGuard redis,
      PassRegistrar registrar,
      ActiveQueueMirror mirror,
      RoomPolicyMirror policies) {
    this.rooms = rooms;
    this.redis = redis;
    this.registrar = registrar;
    this.mirror = mirror;
    this.policies = policies;
  }

  /**
   * Whether {@code visitor} may enter {@code queue}, which is off, now, or go on in it with a pass
   * renewed; counted as a session of the item and an active user of its room when so.
   *
   * @return true to give the pass, false when the room is at its limits and the visitor waits; an
   *     error when Redis failed or the breaker in front of it is open
   */
  public Mono<Boolean> enter(QueueId queue, String visitor, RoomPolicy policy) {
    // Shadow mode lets everyone in, whatever the room's limits; only its virtual line would wait.
    if (!policy.budget().limited() || policy.mode() == Mode.SHADOW) {
      registrar.register(queue, visitor);
      return IN;
    }
    return redis
        .call(rooms.enter(queue, visitor, policy, policies.policy(queue.room())))
        .doOnNext(
            entered -> {
              if (!entered) {
                mirror.markFull(queue.room());
              }
            });
  }
}
