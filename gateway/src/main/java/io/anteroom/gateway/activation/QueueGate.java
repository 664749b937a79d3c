package io.anteroom.gateway.activation;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a visitor without a pass for a queue meets, by the queue's mode and whether it is on. In
 * modes that hold everyone (queue-all, paused) a queue that is off is turned on (as automatic, so
 * the worker turns it off again once it is empty and quiet), so that the worker looks after it.
 * While a scheduled event's pre-queue is open, a queue in mode queue or queue-all holds everyone
 * the same way.
 */
public final class QueueGate {

  /** What a visitor without a pass meets. */
  public enum Verdict {
    /** Enters and gets a pass. */
    ENTER,
    /** Waits in line. */
    WAIT,
    /** Is turned away with the closed page. */
    CLOSED,
    /**
     * Meets the room's failure policy: whether the queue is on cannot be known, because the set of
     * active queues has not been read since start-up (Redis unreachable).
     */
    UNAVAILABLE
  }

  private static final Logger log = LoggerFactory.getLogger(QueueGate.class);

  /** Most activations in flight at once, so a flood of new items cannot pile up calls. */
  static final int MAX_PENDING_ACTIVATIONS = 1000;

  private final ActiveQueueMirror mirror;
  private final AutoActivator activator;
  private final Clock clock;
  private final Set<QueueId> activating = ConcurrentHashMap.newKeySet();
  private final ThrottledWarnings warnings =
      new ThrottledWarnings(log, Clock.systemUTC(), Duration.ofSeconds(10));

  public QueueGate(ActiveQueueMirror mirror, AutoActivator activator, Clock clock) {
    this.mirror = mirror;
    this.activator = activator;
    this.clock = clock;
  }

  /** The verdict for {@code queue} under {@code policy}; never calls Redis on the caller's path. */
  public Verdict verdict(QueueId queue, RoomPolicy policy) {
    if (policy.mode().admits()
        && policy.mode() != Mode.PASSTHROUGH
        && policy.fairness().preQueue(clock.instant())) {
      turnOn(queue);
      return Verdict.WAIT;
    }
    return switch (policy.mode()) {
      case PASSTHROUGH -> Verdict.ENTER;
      case CLOSED -> Verdict.CLOSED;
      case QUEUE ->
          mirror.isActive(queue)
              ? Verdict.WAIT
              : mirror.isKnown() ? Verdict.ENTER : Verdict.UNAVAILABLE;
      case QUEUE_ALL, PAUSED -> {
        turnOn(queue);
        yield Verdict.WAIT;
      }
    };
  }

  private void turnOn(QueueId queue) {
    if (mirror.isActive(queue)
        || activating.size() >= MAX_PENDING_ACTIVATIONS
        || !activating.add(queue)) {
      return;
    }
    activator
        .activate(queue)
        .doFinally(signal -> activating.remove(queue))
        .subscribe(
            null,
            error ->
                warnings.warn(
                    "activate",
                    "room={} queue={} could not be turned on: {}",
                    queue.room(),
                    queue.item(),
                    error.toString()));
  }
}
