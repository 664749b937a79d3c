package io.anteroom.gateway.activation;

import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Sends this gateway's request counts to Redis about once a second ({@link #flush()}, run
 * periodically), for the items whose count could matter ({@link PendingHits}: a tenth of the
 * threshold, at most 1,000 items a flush) all in one script call ({@link TrafficStore#record}: one
 * per slot on a Redis Cluster), and turns a queue on when the requests of all gateways in its
 * activation window cross the policy's threshold. Only queues whose policy activates on traffic are
 * counted at all.
 */
public final class HitFlusher {

  private static final Logger log = LoggerFactory.getLogger(HitFlusher.class);

  private final HitCounter counter;
  private final TrafficStore traffic;
  private final AutoActivator activator;
  private final ActiveQueueMirror mirror;
  private final RoomPolicyMirror policies;
  private final PendingHits pending;
  private final Clock clock;
  private final Counter evicted;
  private final ThrottledWarnings warnings;

  public HitFlusher(
      HitCounter counter,
      TrafficStore traffic,
      AutoActivator activator,
      ActiveQueueMirror mirror,
      RoomPolicyMirror policies,
      MeterRegistry meters,
      Clock clock) {
    this.counter = counter;
    this.traffic = traffic;
    this.activator = activator;
    this.mirror = mirror;
    this.policies = policies;
    this.pending = new PendingHits(counter.capacity());
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
    this.evicted = meters.counter("anteroom.gateway.hits.evicted");
  }

  /** Counts a request for {@code queue} when its policy activates on traffic. */
  public void record(QueueId queue, RoomPolicy policy) {
    if (policy.activatesOnTraffic()) {
      counter.record(queue);
    }
  }

  /** Sends the counts that are due; completes when done, never with an error. */
  public Mono<Void> flush() {
    HitCounter.Drained drained = counter.drain();
    evicted.increment(drained.evicted());
    List<TrafficStore.Hits> due =
        pending.due(drained.counts(), policies::policy, clock.millis()).stream()
            .map(d -> new TrafficStore.Hits(d.queue(), d.requests(), d.policy()))
            .toList();
    if (due.isEmpty()) {
      return Mono.empty();
    }
    return traffic
        .record(due)
        .filter(HitFlusher::crossed)
        .filter(total -> !mirror.isActive(total.hits().queue()))
        // A failed call ends the flux only after every other call's totals, and their activations.
        .flatMapDelayError(
            total -> activate(total.hits().queue(), total.hits().policy(), total.requests()), 16, 1)
        .onErrorResume(
            error -> {
              warnings.warn(
                  "hits",
                  "traffic of {} queues could not all be counted: {}",
                  due.size(),
                  error.toString());
              return Mono.empty();
            })
        .then();
  }

  private static boolean crossed(TrafficStore.WindowTotal total) {
    RoomPolicy policy = total.hits().policy();
    return total.requests() >= policy.activateAbove() * policy.activationWindowSeconds();
  }

  private Mono<Void> activate(QueueId queue, RoomPolicy policy, long total) {
    return activator
        .activate(queue)
        .filter(changed -> changed)
        .doOnNext(
            changed -> {
              log.info(
                  "room={} queue={} turned on by traffic: {} requests in {}s, threshold {}/s",
                  queue.room(),
                  queue.item(),
                  total,
                  policy.activationWindowSeconds(),
                  policy.activateAbove());
            })
        .then();
  }
}
