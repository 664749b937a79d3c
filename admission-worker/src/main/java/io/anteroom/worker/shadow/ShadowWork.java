package io.anteroom.worker.shadow;

import io.anteroom.queue.AdmitBatches;
import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.ExpireResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.shadow.ShadowLines;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One tick's work on the virtual line of an active queue in shadow mode ({@link ShadowLines}):
 * admit at the queue's rate, cap and batch as in mode {@code queue} (nobody abandoned: nobody polls
 * a virtual line), end sessions after the session duration (nobody touches them either), record the
 * waits of those admitted and refresh the keys' time to live, then publish the figures ({@link
 * ShadowMeters}). A failure is logged with {@code room=} and {@code queue=}, counted in {@code
 * anteroom.worker.errors}, and swallowed.
 */
public final class ShadowWork {

  private static final Logger log = LoggerFactory.getLogger(ShadowWork.class);

  private static final String ADMITTED = "anteroom.shadow.admitted";

  private final ShadowLines lines;
  private final ShadowMeters gauges;
  private final MeterRegistry meters;
  private final ThrottledWarnings warnings;

  /** Registers its counter for each of {@code rooms} at zero. */
  public ShadowWork(
      ShadowLines lines,
      ShadowMeters gauges,
      Set<String> rooms,
      MeterRegistry meters,
      Clock clock) {
    this.lines = lines;
    this.gauges = gauges;
    this.meters = meters;
    this.warnings = ThrottledWarnings.of(log, clock);
    rooms.forEach(room -> admitted(room));
  }

  /**
   * The tick on {@code queue}'s virtual line when its mode is shadow; nothing otherwise.
   *
   * @return whether nobody is left in the virtual line (true in other modes, and when Redis
   *     failed), so an automatically activated queue is turned off only once the line it stands for
   *     is empty, as in mode queue
   */
  public Mono<Boolean> run(QueueId queue, RoomPolicy policy) {
    if (policy.mode() != Mode.SHADOW) {
      return Mono.just(true);
    }
    RoomPolicy virtual = ShadowLines.virtual(policy);
    QueueStore store = lines.store();
    return admit(store, queue, virtual)
        .then(store.expire(queue, virtual))
        .flatMap(sizes -> recorded(queue, virtual, sizes))
        .onErrorResume(error -> failed(queue, error));
  }

  /** Admits in batches, as the real line's work does. */
  private Mono<Void> admit(QueueStore store, QueueId queue, RoomPolicy virtual) {
    return AdmitBatches.of(store, queue, virtual)
        .map(AdmitResult::admitted)
        .filter(admitted -> admitted > 0)
        .doOnNext(admitted -> admitted(queue.room()).increment(admitted))
        .then();
  }

  private Mono<Boolean> recorded(QueueId queue, RoomPolicy virtual, ExpireResult sizes) {
    return lines
        .recordWaits(queue, virtual)
        .then(lines.waits(queue))
        .map(
            waits -> {
              gauges.observe(queue, sizes, waits);
              return sizes.waiting() == 0;
            });
  }

  private Mono<Boolean> failed(QueueId queue, Throwable error) {
    meters.counter("anteroom.worker.errors", "room", queue.room()).increment();
    warnings.warn(
        "shadow " + queue,
        "room={} queue={} shadow line failed: {}",
        queue.room(),
        queue.item(),
        error.toString());
    return Mono.just(true);
  }

  /** Tagged by room only: rooms are configured, items come from requests and are unbounded. */
  private Counter admitted(String room) {
    return meters.counter(ADMITTED, "room", room);
  }
}
