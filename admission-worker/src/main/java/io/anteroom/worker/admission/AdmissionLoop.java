package io.anteroom.worker.admission;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.worker.WorkerProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.function.Tuple2;
import reactor.util.function.Tuples;

/**
 * Every tick, admits and expires for each active queue. A tick that comes while the previous one is
 * still running is dropped (and counted), so a slow Redis never piles up work. Any number of loops,
 * in any number of processes, may run against one Redis: the scripts are atomic and the admission
 * rate is kept by the token bucket in Redis.
 */
public final class AdmissionLoop implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(AdmissionLoop.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(2);

  private final ActiveQueues active;
  private final RoomPolicies policies;
  private final QueueWork work;
  private final Duration tick;
  private final int concurrency;
  private final Counter dropped;
  private final Counter failedTicks;
  private final AtomicBoolean busy = new AtomicBoolean();
  private final ThrottledWarnings warnings =
      new ThrottledWarnings(log, Clock.systemUTC(), Duration.ofSeconds(10));
  private volatile Disposable ticking;

  public AdmissionLoop(
      ActiveQueues active,
      RoomPolicies policies,
      QueueWork work,
      WorkerProperties properties,
      MeterRegistry meters) {
    this.active = active;
    this.policies = policies;
    this.work = work;
    this.tick = properties.tickInterval();
    this.concurrency = properties.queueConcurrency();
    this.dropped = meters.counter("anteroom.worker.ticks.dropped");
    this.failedTicks = meters.counter("anteroom.worker.ticks.failed");
  }

  @Override
  public synchronized void start() {
    if (ticking == null) {
      ticking = Flux.interval(tick).subscribe(n -> tickUnlessBusy());
      log.info("Admission loop started, tick={}", tick);
    }
  }

  /** Stops ticking and waits (at most two seconds) for a tick in flight to finish. */
  @Override
  public synchronized void stop() {
    if (ticking != null) {
      ticking.dispose();
      ticking = null;
      long deadline = System.nanoTime() + STOP_WAIT.toNanos();
      while (busy.get() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
      }
    }
  }

  @Override
  public boolean isRunning() {
    return ticking != null;
  }

  private void tickUnlessBusy() {
    if (!busy.compareAndSet(false, true)) {
      dropped.increment();
      return;
    }
    runOnce().doFinally(signal -> busy.set(false)).subscribe();
  }

  /** One tick over every active queue; completes when all are done, never with an error. */
  public Mono<Void> runOnce() {
    return active
        .list()
        .flatMapMany(queues -> Flux.fromIterable(byRoom(queues.keySet()).entrySet()))
        .flatMap(room -> withPolicy(room.getKey(), room.getValue()))
        .flatMap(job -> work.run(job.getT1(), job.getT2()), concurrency)
        .then()
        .onErrorResume(
            error -> {
              failedTicks.increment();
              warnings.warn("tick", "Admission tick failed: {}", error.toString());
              return Mono.empty();
            });
  }

  /** The room's policy, read once per tick, paired with each of its active queues. */
  private Flux<Tuple2<QueueId, RoomPolicy>> withPolicy(String room, List<QueueId> queues) {
    return policies
        .current(room)
        .switchIfEmpty(
            Mono.fromRunnable(
                () ->
                    warnings.warn(
                        room, "room={} has active queues but is not configured; skipped", room)))
        .flatMapMany(policy -> Flux.fromIterable(queues).map(q -> Tuples.of(q, policy)))
        .onErrorResume(
            error -> {
              failedTicks.increment();
              warnings.warn(room, "room={} policy could not be read: {}", room, error.toString());
              return Flux.empty();
            });
  }

  private static Map<String, List<QueueId>> byRoom(Set<QueueId> queues) {
    return queues.stream().collect(Collectors.groupingBy(QueueId::room));
  }
}
