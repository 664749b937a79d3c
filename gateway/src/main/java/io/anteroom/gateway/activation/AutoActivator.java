package io.anteroom.gateway.activation;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Turns queues on automatically (for traffic, or for a mode that holds everyone), at most {@code
 * maxPerRoom} queues of one room at once: items come from requests, and a flood of made-up item ids
 * must not grow the set of active queues, which every gateway and worker reads each tick, without
 * limit. Refusals are counted ({@code anteroom.gateway.activations.refused}) and logged.
 */
public final class AutoActivator {

  private static final Logger log = LoggerFactory.getLogger(AutoActivator.class);

  private final ActiveQueues active;

  /** Queues this gateway turned on automatically (by traffic, or for a mode that holds all). */
  private static final String ACTIVATED = "anteroom.gateway.activated";

  /** Automatic activations refused because the room has as many queues on as allowed. */
  private static final String REFUSED = "anteroom.gateway.activations.refused";

  private final ActiveQueueMirror mirror;
  private final long maxPerRoom;
  private final MeterRegistry meters;
  private final ThrottledWarnings warnings;

  /** Registers its counters for each of {@code rooms} at zero. */
  public AutoActivator(
      ActiveQueues active,
      ActiveQueueMirror mirror,
      long maxPerRoom,
      Set<String> rooms,
      MeterRegistry meters,
      Clock clock) {
    this.active = active;
    this.mirror = mirror;
    this.maxPerRoom = maxPerRoom;
    this.meters = meters;
    this.warnings = ThrottledWarnings.of(log, clock);
    for (String room : rooms) {
      meters.counter(ACTIVATED, "room", room);
      meters.counter(REFUSED, "room", room);
    }
  }

  /**
   * Turns {@code queue} on as automatic and refreshes the mirror; true when this call turned it on,
   * false when it was on already or the room has as many queues on as allowed.
   */
  public Mono<Boolean> activate(QueueId queue) {
    if (mirror.activeIn(queue.room()) >= maxPerRoom) {
      meters.counter(REFUSED, "room", queue.room()).increment();
      warnings.warn(
          queue.room(),
          "room={} has {} queues on, the most allowed (anteroom.gateway.max-queues-per-room);"
              + " queue={} stays off",
          queue.room(),
          maxPerRoom,
          queue.item());
      return Mono.just(false);
    }
    return active
        .activate(queue, Activation.AUTO)
        .flatMap(changed -> changed ? turnedOn(queue) : Mono.just(false));
  }

  private Mono<Boolean> turnedOn(QueueId queue) {
    meters.counter(ACTIVATED, "room", queue.room()).increment();
    return mirror.refresh().thenReturn(true);
  }
}
