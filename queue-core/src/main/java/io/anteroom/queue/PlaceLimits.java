package io.anteroom.queue;

import java.time.Duration;
import java.time.Instant;
import reactor.core.publisher.Mono;

/**
 * Limits on taking places in line: how many queues of a room one visitor id waits in at once, and
 * how many new places one client address asks for per minute. Each call is lazy and fails as an
 * error signal (a Redis error or timeout), never by blocking.
 */
public interface PlaceLimits {

  /**
   * A line a claiming visitor holds a ticket for. A newcomer's first place is taken under an id
   * minted for that very request, whose claim is not made (no cap can refuse it, and a record per
   * request without cookies would fill Redis); the ticket the newcomer got tells the next claim.
   *
   * @param item the ticket's item
   * @param joined when the ticket was issued
   */
  record Held(String item, Instant joined) {}

  /**
   * Records that {@code visitor} joins {@code queue}, unless it already waits in {@code cap} other
   * queues of the room; an entry for a queue the visitor no longer waits in (admitted, gone) does
   * not count, nor one not renewed for {@code keep}.
   *
   * @param held the line of the ticket the visitor holds, counted as joined if not recorded; or
   *     null
   * @return true when the visitor may join
   */
  Mono<Boolean> claim(QueueId queue, String visitor, int cap, Duration keep, Held held);

  /**
   * Counts a request for a new place in {@code room} from {@code address} in the current minute,
   * unless {@code perMinute} were counted already (a refused request is not counted).
   *
   * @return true when the request may take a place
   */
  Mono<Boolean> countNewPlace(String room, String address, int perMinute);

  /** Whole seconds until the current one-minute window ends, at least 1. */
  long secondsToNextWindow();
}
