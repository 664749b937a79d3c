package io.anteroom.queue;

import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The registry of queues that are on. Visitors of a queue that is off pass without waiting; the
 * worker admits only for queues that are on.
 */
public interface ActiveQueues {

  /**
   * Turns {@code queue} on. A manual activation overrides an automatic one; an automatic one never
   * overrides a manual one.
   *
   * @return true when the queue was off before
   */
  Mono<Boolean> activate(QueueId queue, Activation cause);

  /** Turns {@code queue} off whatever turned it on; true when it was on. */
  Mono<Boolean> deactivate(QueueId queue);

  /** Turns {@code queue} off only if {@code cause} turned it on; true when it did. */
  Mono<Boolean> deactivate(QueueId queue, Activation cause);

  /** Every queue that is on, with its cause; entries that are not valid queue ids are skipped. */
  default Mono<Map<QueueId, Activation>> list() {
    return read().map(ActiveSet::queues);
  }

  /**
   * The queues that are on and the rooms at their room-wide limits, in one read. A store may answer
   * from its last read when it can tell nothing changed since.
   */
  Mono<ActiveSet> read();

  /**
   * As {@link #read()}, always reading every entry: for a caller told of a change (an announcement)
   * by a writer that may not have marked it.
   */
  default Mono<ActiveSet> readWhole() {
    return read();
  }

  /**
   * Marks {@code room} as at its room-wide limits, so that every newcomer of the room waits, or as
   * having room again.
   *
   * @return true when that changed
   */
  Mono<Boolean> markFull(String room, boolean full);
}
