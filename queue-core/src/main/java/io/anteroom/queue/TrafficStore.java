package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Requests per queue per second, summed over every gateway, for turning queues on and off with
 * traffic. Nothing is sent until the returned publisher is subscribed.
 */
public interface TrafficStore {

  /** Requests one gateway counted for a queue, whose policy gives the activation window. */
  record Hits(QueueId queue, long requests, RoomPolicy policy) {}

  /** The requests of all gateways in a queue's activation window, after {@code hits} were added. */
  record WindowTotal(Hits hits, long requests) {}

  /**
   * Adds each queue's requests to its current second, all in one round trip on one Redis server,
   * one per Cluster slot the queues' keys fall in on a Redis Cluster.
   *
   * @param hits at most one entry per queue
   * @return each queue's total, as each round trip answers; a round trip that fails ends the flux
   *     with its error once the others have answered
   */
  Flux<WindowTotal> record(List<Hits> hits);

  /**
   * Whether a queue that was turned on automatically may be turned off: for a queue that traffic
   * turned on, whether it has been empty and below the policy's lower threshold for its cool-down;
   * for one whose policy holds everyone, whether nobody has waited in it since the previous call.
   * Callers turn it off when true. Each call extends or breaks the quiet spell.
   */
  Mono<Boolean> settled(QueueId queue, RoomPolicy policy);
}
