package io.anteroom.gateway.activation;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a visitor without a pass for a queue meets, by the queue's mode and whether it is on; in a
 * room at its room-wide limits every newcomer waits, whatever item they came for. In modes that
 * hold everyone (queue-all, paused, and queue while a scheduled event's pre-queue is open) everyone
 * waits whether or not the queue is on. Such a queue is turned on (as automatic, so the worker
 * turns it off again once nobody waits) only when someone waits in it who needs the worker ({@link
 * #waiting}): in a line that admits, anyone left waiting; in a paused line or a pre-queue, a
 * visitor who comes back or a second one in line. So an item id requested once, as by a bot naming
 * random items, never takes one of the room's places for queues that are on.
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
  private final ThrottledWarnings warnings;

  public QueueGate(ActiveQueueMirror mirror, AutoActivator activator, Clock clock) {
    this.mirror = mirror;
    this.activator = activator;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
  }

  /** The verdict for {@code queue} under {@code policy}; never calls Redis on the caller's path. */
  public Verdict verdict(QueueId queue, RoomPolicy policy) {
    return verdict(queue, policy, false);
  }

  /**
   * {@link #verdict(QueueId, RoomPolicy)} for a visitor who may be inside the room already: a room
   * at its room-wide limits does not hold one who holds a pass for another of its items off a queue
   * that is off, since the room counts people, not items. Whether they are still an active user is
   * for Redis to say on the way in ({@link io.anteroom.gateway.pass.DirectEntry}); one who is not
   * waits after all.
   *
   * @param inside whether the visitor holds a pass of the room still open for another item
   */
  public Verdict verdict(QueueId queue, RoomPolicy policy, boolean inside) {
    if (policy.holdsEveryone(clock.instant())) {
      return Verdict.WAIT;
    }
    return switch (policy.mode()) {
      // Shadow lets everyone in as passthrough does, even into a room at its limits; the virtual
      // line is joined beside (ShadowJoins).
      case PASSTHROUGH, SHADOW -> Verdict.ENTER;
      case CLOSED -> Verdict.CLOSED;
      // queue-all and paused hold everyone (above): this is queue outside a pre-queue.
      case QUEUE, QUEUE_ALL, PAUSED ->
          mirror.isActive(queue) || (!inside && full(queue, policy))
              ? Verdict.WAIT
              : mirror.isKnown() ? Verdict.ENTER : Verdict.UNAVAILABLE;
    };
  }

  /**
   * A visitor was left waiting in {@code queue}: turns a queue that holds everyone on when the
   * worker is needed, that is when its line admits; or, in a paused line or a pre-queue (which the
   * worker sweeps of those who left, and must be on when admission starts), when the visitor came
   * back (a poll, or the page loaded again with the ticket) or is not alone in line. A queue of a
   * room at its limits is turned on the same way, as automatic: the worker turns it off once it has
   * been empty for the cool-down. Never calls Redis on the caller's path.
   *
   * @param cameBack true when the visitor held a ticket for this queue
   * @param waiting people in line, the visitor included
   */
  public void waiting(QueueId queue, RoomPolicy policy, boolean cameBack, long waiting) {
    Instant now = clock.instant();
    boolean full = full(queue, policy) && policy.mode().admits();
    boolean held =
        policy.holdsEveryone(now)
            && (cameBack
                || waiting > 1
                || (policy.mode().admits() && !policy.fairness().preQueue(now)));
    if (full || held) {
      turnOn(queue, waiting);
    }
  }

  /**
   * Whether the queue's room is at its room-wide limits; a mark left from limits since removed
   * counts for nothing.
   */
  private boolean full(QueueId queue, RoomPolicy policy) {
    return policy.budget().limited() && mirror.isFull(queue.room());
  }

  private void turnOn(QueueId queue, long waiting) {
    if (mirror.isActive(queue)
        || activating.size() >= MAX_PENDING_ACTIVATIONS
        || !activating.add(queue)) {
      return;
    }
    activator
        .activate(queue, waiting)
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
