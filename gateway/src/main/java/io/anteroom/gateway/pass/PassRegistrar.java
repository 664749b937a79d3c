package io.anteroom.gateway.pass;

import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Records in Redis, in batches, the passes this gateway gives out while queues are off, so a queue
 * that turns on knows who is already inside. The request path only adds to a bounded in-memory
 * buffer; a flush ({@link #flush()}, run periodically) sends one script call per queue, for at most
 * {@value #MAX_QUEUES_PER_FLUSH} queues, those with the most passes first, so a flood of made-up
 * items costs a bounded number of calls. When the buffer is full, or a queue is beyond that, its
 * registrations are dropped and counted: the visitors keep their passes, only the cap's count
 * misses them. The running sets written are idle lines, bounded per room ({@code
 * anteroom.idle-lines.per-room}).
 */
public final class PassRegistrar {

  private static final Logger log = LoggerFactory.getLogger(PassRegistrar.class);
  static final int MAX_PENDING = 100_000;

  /** Most queues one flush registers passes for. */
  static final int MAX_QUEUES_PER_FLUSH = 100;

  private final QueueStore store;
  private final RoomPolicyMirror policies;
  private final Counter dropped;
  private final AtomicReference<Map<QueueId, Set<String>>> pending =
      new AtomicReference<>(new ConcurrentHashMap<>());
  private final AtomicInteger size = new AtomicInteger();
  private final ThrottledWarnings warnings;

  public PassRegistrar(
      QueueStore store, RoomPolicyMirror policies, MeterRegistry meters, Clock clock) {
    this.store = store;
    this.policies = policies;
    this.warnings = ThrottledWarnings.of(log, clock);
    this.dropped = meters.counter("anteroom.gateway.registrations.dropped");
  }

  /** Queues {@code visitor} of {@code queue} for the next flush; never blocks, never fails. */
  public void register(QueueId queue, String visitor) {
    if (size.incrementAndGet() > MAX_PENDING) {
      size.decrementAndGet();
      dropped.increment();
      return;
    }
    pending.get().computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(visitor);
  }

  /** Sends everything buffered so far. */
  public Mono<Void> flush() {
    Map<QueueId, Set<String>> batch = pending.getAndSet(new ConcurrentHashMap<>());
    size.set(0);
    List<Map.Entry<QueueId, Set<String>>> queues = new ArrayList<>(batch.entrySet());
    queues.sort(Comparator.comparingInt(e -> -e.getValue().size()));
    for (Map.Entry<QueueId, Set<String>> dropping :
        queues.subList(Math.min(MAX_QUEUES_PER_FLUSH, queues.size()), queues.size())) {
      dropped.increment(dropping.getValue().size());
    }
    return Flux.fromIterable(queues.subList(0, Math.min(MAX_QUEUES_PER_FLUSH, queues.size())))
        .flatMap(entry -> send(entry.getKey(), entry.getValue()), 16)
        .then();
  }

  private Mono<Long> send(QueueId queue, Set<String> visitors) {
    RoomPolicy policy = policies.policy(queue);
    if (policy == null) {
      return Mono.empty();
    }
    return store
        .register(queue, visitors, policy)
        .onErrorResume(
            error -> {
              dropped.increment(visitors.size());
              warnings.warn(
                  queue.toString(),
                  "room={} queue={} passes could not be registered: {}",
                  queue.room(),
                  queue.item(),
                  error.toString());
              return Mono.empty();
            });
  }
}
