package io.anteroom.worker.admission;

import io.anteroom.queue.AdmitBatches;
import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.ExpireResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.worker.metrics.LineMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One tick's work on one queue: admit at the room's rate, then end idle sessions, whose call also
 * reads the sizes for the gauges, alongside a read of the admission rate measured in Redis. A
 * failure is logged with {@code room=} and {@code queue=}, counted, and swallowed, so one queue can
 * never stop the others or the next tick.
 */
public final class QueueWork {

  private static final Logger log = LoggerFactory.getLogger(QueueWork.class);

  private static final List<String> COUNTERS =
      List.of(
          "anteroom.worker.admitted",
          "anteroom.worker.abandoned",
          "anteroom.worker.expired",
          "anteroom.worker.cleared",
          "anteroom.worker.errors");

  private final QueueStore store;
  private final LineMeters lines;
  private final MeterRegistry meters;
  private final Clock clock;
  private final ThrottledWarnings warnings;

  /**
   * Registers its counters for each of {@code rooms} at zero, so rates start from the first tick.
   */
  public QueueWork(
      QueueStore store, LineMeters lines, Set<String> rooms, MeterRegistry meters, Clock clock) {
    this.store = store;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
    this.lines = lines;
    this.meters = meters;
    for (String room : rooms) {
      for (String name : COUNTERS) {
        meters.counter(name, "room", room);
      }
    }
  }

  /**
   * Admits; or, in a mode that admits nobody or while a scheduled event's pre-queue is open,
   * finishes the visitors who stopped polling, and clears the line of a queue closed with {@code
   * closed-line: clear}; then expires and reads the measured rate. Completes empty even when Redis
   * fails.
   */
  public Mono<Void> run(QueueId queue, RoomPolicy policy) {
    return run(queue, policy, admit(queue, policy));
  }

  /**
   * {@link #run} for a queue of a room with room-wide limits: its admissions were made with the
   * room's ({@link RoomWork}), so only the rest is done here.
   */
  Mono<Void> runAdmitted(QueueId queue, RoomPolicy policy) {
    return run(queue, policy, Mono.empty());
  }

  /** Whether the queue admits now: its mode admits and no scheduled event's pre-queue is open. */
  boolean admits(RoomPolicy policy) {
    return policy.mode().admits() && !policy.fairness().preQueue(clock.instant());
  }

  /** Counts what a room's admission call did in {@code queue}. */
  void record(QueueId queue, AdmitResult result) {
    count("anteroom.worker.admitted", queue, result.admitted());
    count("anteroom.worker.abandoned", queue, result.abandoned());
  }

  /** Counts a failure that concerns the queue's room as a whole. */
  void failed(String room, Throwable error) {
    meters.counter("anteroom.worker.errors", "room", room).increment();
    warnings.warn(room, "room={} admission failed: {}", room, error.toString());
  }

  private Mono<Void> run(QueueId queue, RoomPolicy policy, Mono<Void> admission) {
    Mono<Void> entry = admits(policy) ? admission : sweep(queue, policy);
    if (policy.mode() == Mode.CLOSED && policy.closedLine() == ClosedLine.CLEAR) {
      entry = clear(queue);
    } else if (policy.mode() == Mode.SHADOW) {
      // Nobody waits in the real line of a queue in shadow mode: its admissions are the virtual
      // line's (ShadowWork); only the sessions of the passes it gave out expire here.
      entry = Mono.empty();
    }
    return entry
        .then(Mono.zip(expire(queue, policy), store.measuredRate(queue)))
        .doOnNext(read -> record(queue, policy, read.getT1(), read.getT2()))
        .then()
        .onErrorResume(error -> failed(queue, error));
  }

  /**
   * Expires in calls of bounded work, another while one did all it may ({@link AdmitBatches}): idle
   * sessions and old finished entries that age faster than one call a tick removes do not pile up.
   */
  private Mono<ExpireResult> expire(QueueId queue, RoomPolicy policy) {
    return AdmitBatches.of(() -> store.expire(queue, policy), ExpireResult::whole)
        .reduce(ExpireResult::then);
  }

  /** Admits in batches ({@link AdmitBatches}). */
  private Mono<Void> admit(QueueId queue, RoomPolicy policy) {
    return AdmitBatches.of(store, queue, policy).doOnNext(result -> record(queue, result)).then();
  }

  private Mono<Void> sweep(QueueId queue, RoomPolicy policy) {
    return store
        .sweep(queue, policy)
        .doOnNext(gone -> count("anteroom.worker.abandoned", queue, gone))
        .then();
  }

  private Mono<Void> clear(QueueId queue) {
    return store
        .clear(queue)
        .doOnNext(
            cleared -> {
              if (cleared > 0) {
                count("anteroom.worker.cleared", queue, cleared);
                log.info(
                    "room={} queue={} closed: line of {} cleared",
                    queue.room(),
                    queue.item(),
                    cleared);
              }
            })
        .then();
  }

  private void record(QueueId queue, RoomPolicy policy, ExpireResult result, double measuredRate) {
    count("anteroom.worker.expired", queue, result.expired());
    lines.observe(queue, policy, result, measuredRate);
  }

  private void count(String name, QueueId queue, long amount) {
    if (amount > 0) {
      counter(name, queue).increment(amount);
    }
  }

  private Mono<Void> failed(QueueId queue, Throwable error) {
    counter("anteroom.worker.errors", queue).increment();
    warnings.warn(
        queue.toString(),
        "room={} queue={} admission failed: {}",
        queue.room(),
        queue.item(),
        error.toString());
    return Mono.empty();
  }

  /** Tagged by room only: rooms are configured, items come from requests and are unbounded. */
  private Counter counter(String name, QueueId queue) {
    return meters.counter(name, "room", queue.room());
  }
}
