package io.anteroom.worker.activation;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Turns off a queue that was turned on automatically: one traffic turned on once it has been empty
 * and below the lower threshold for the cool-down; one whose mode holds everyone as soon as nobody
 * waits in it, so it stops counting against the room's cap of queues on (its running sessions keep
 * counting against max-active from its keys, which now expire). A queue an operator turned on is
 * left alone. Turning off an empty queue is always safe: in a mode that holds everyone, the next
 * visitor left waiting turns it on again.
 */
public final class AutoDeactivation {

  private static final Logger log = LoggerFactory.getLogger(AutoDeactivation.class);

  private static final String DEACTIVATED = "anteroom.worker.deactivated";

  private final TrafficStore traffic;
  private final ActiveQueues active;
  private final MeterRegistry meters;
  private final ThrottledWarnings warnings;

  /**
   * Registers its counter for each of {@code rooms} at zero.
   *
   * @param clock the time warnings are rate-limited by
   */
  public AutoDeactivation(
      TrafficStore traffic,
      ActiveQueues active,
      Set<String> rooms,
      MeterRegistry meters,
      Clock clock) {
    this.traffic = traffic;
    this.active = active;
    this.meters = meters;
    this.warnings = ThrottledWarnings.of(log, clock);
    rooms.forEach(room -> meters.counter(DEACTIVATED, "room", room));
  }

  /** Checks {@code queue}, turned on for {@code cause}; completes empty even when Redis fails. */
  public Mono<Void> check(QueueId queue, Activation cause, RoomPolicy policy) {
    if (cause != Activation.AUTO) {
      return Mono.empty();
    }
    return traffic
        .settled(queue, policy)
        .filter(settled -> settled)
        .flatMap(settled -> active.deactivate(queue, Activation.AUTO))
        .doOnNext(off -> turnedOff(queue, policy, off))
        .then()
        .onErrorResume(
            error -> {
              warnings.warn(
                  queue.toString(),
                  "room={} queue={} deactivation check failed: {}",
                  queue.room(),
                  queue.item(),
                  error.toString());
              return Mono.empty();
            });
  }

  private void turnedOff(QueueId queue, RoomPolicy policy, boolean off) {
    if (off) {
      meters.counter(DEACTIVATED, "room", queue.room()).increment();
      log.info(
          "room={} queue={} turned off: nobody waiting{}",
          queue.room(),
          queue.item(),
          policy.mode().holdsEveryone()
              ? ""
              : ", below " + policy.quietBelow() + "/s for " + policy.coolDown());
    }
  }
}
