package io.anteroom.gateway.shadow;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.shadow.ShadowLines;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the visitors whom a queue in shadow mode lets in, and who would have waited in mode {@code
 * queue}, in the queue's virtual line ({@link ShadowLines}): newcomers without a pass for the
 * queue, asking to read (a write cannot wait), while the queue is on. Each joins under an id minted
 * for the join, never one read from a cookie, so no ticket, pass or identity can name, move or
 * repeat a place in a virtual line: a request is at most one join, as a newcomer's is in a real
 * line.
 *
 * <p>The join runs in the background, off the visitor's path: the visitor neither waits for it nor
 * learns of its failure. At most {@value #MAX_IN_FLIGHT} joins are in flight at once, and none is
 * tried while the breaker in front of Redis refuses; the rest are counted as dropped. Counted in
 * {@code anteroom.gateway.shadow.joins{room,outcome}}, outcome {@code joined}, {@code overflow}
 * (the virtual line holds {@link ShadowLines#MAX_WAITING} already: the would-be line is longer than
 * that), {@code dropped} or {@code failed}; failures are logged at most every 10 s per room.
 */
public final class ShadowJoins {

  private static final Logger log = LoggerFactory.getLogger(ShadowJoins.class);

  /** Most joins in flight at once, so a flood of newcomers cannot pile up calls. */
  static final int MAX_IN_FLIGHT = 1000;

  private static final String JOINS = "anteroom.gateway.shadow.joins";

  private final ShadowLines lines;
  private final ActiveQueueMirror mirror;
  private final RedisGuard redis;
  private final MeterRegistry meters;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final ThrottledWarnings warnings;

  /** Registers its counters for each of {@code rooms} at zero. */
  public ShadowJoins(
      ShadowLines lines,
      ActiveQueueMirror mirror,
      RedisGuard redis,
      Set<String> rooms,
      MeterRegistry meters,
      Clock clock) {
    this.lines = lines;
    this.mirror = mirror;
    this.redis = redis;
    this.meters = meters;
    this.warnings = ThrottledWarnings.of(log, clock);
    for (String room : rooms) {
      for (String outcome : new String[] {"joined", "overflow", "dropped", "failed"}) {
        meters.counter(JOINS, "room", room, "outcome", outcome);
      }
    }
  }

  /**
   * A visitor without a pass for {@code queue} is let in under {@code policy}: in shadow mode, with
   * the queue on, a newcomer whose request reads ({@code GET}, {@code HEAD}: {@code reads}) joins
   * its virtual line in the background. Never blocks, never fails.
   */
  public void arrived(QueueId queue, RoomPolicy policy, boolean reads) {
    if (policy.mode() != Mode.SHADOW || !mirror.isActive(queue) || !reads) {
      return;
    }
    if (redis.refuses()) {
      count(queue, "dropped");
      return;
    }
    if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
      inFlight.decrementAndGet();
      count(queue, "dropped");
      return;
    }
    lines
        .join(queue, VisitorIds.newVisitorId(), policy)
        .doFinally(signal -> inFlight.decrementAndGet())
        .subscribe(
            joined -> count(queue, joined ? "joined" : "overflow"), error -> failed(queue, error));
  }

  private void failed(QueueId queue, Throwable error) {
    count(queue, "failed");
    warnings.warn(
        queue.room(),
        "room={} queue={} shadow join failed: {}",
        queue.room(),
        queue.item(),
        error.toString());
  }

  /** Tagged by room only: rooms are configured, items come from requests and are unbounded. */
  private void count(QueueId queue, String outcome) {
    meters.counter(JOINS, "room", queue.room(), "outcome", outcome).increment();
  }
}
