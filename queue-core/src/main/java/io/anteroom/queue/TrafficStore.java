package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import reactor.core.publisher.Mono;

/**
 * Requests per queue per second, summed over every gateway, for turning queues on and off with
 * traffic. Each call is one Redis round trip; nothing is sent until the {@link Mono} is subscribed.
 */
public interface TrafficStore {

  /**
   * Adds {@code requests} to the queue's current second.
   *
   * @return the requests in the policy's activation window, this call's included
   */
  Mono<Long> record(QueueId queue, long requests, RoomPolicy policy);

  /**
   * Whether a queue that was turned on automatically may be turned off: for a queue that traffic
   * turned on, whether it has been empty and below the policy's lower threshold for its cool-down;
   * for one whose policy holds everyone, whether nobody has waited in it since the previous call.
   * Callers turn it off when true. Each call extends or breaks the quiet spell.
   */
  Mono<Boolean> settled(QueueId queue, RoomPolicy policy);
}
