package io.anteroom.queue;

import java.time.Duration;
import java.util.Collection;
import reactor.core.publisher.Mono;

/**
 * The lines of a room's queues that are off but keep keys in Redis: sessions given while the queue
 * was off, a line that began without the queue on, what is left when a queue is turned off. Each
 * such line expires by itself, and a room keeps at most a bounded number of them: beyond it the
 * least recently written are deleted, so item ids that are requested once cannot fill Redis.
 *
 * <p>Callers report every write to an off queue's keys; a report fails only as an error signal, and
 * a missed one only lets a line live out its time to live unbounded.
 */
public interface IdleLines {

  /** Records nothing and deletes nothing, for stores whose lines need no bound (tests, tools). */
  IdleLines UNBOUNDED = (room, items, keep) -> Mono.just(0L);

  /**
   * Records that the lines of {@code items} of {@code room} were written while off, and deletes the
   * keys of the least recently written lines beyond the room's bound.
   *
   * @param keep the idle time to live of those lines; the record lives at least as long
   * @return how many lines were deleted
   */
  Mono<Long> written(String room, Collection<String> items, Duration keep);
}
