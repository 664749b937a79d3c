package io.anteroom.queue.policy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * How a room orders its line and limits places: the queueing method, a scheduled event with its
 * pre-queue, and the caps on places per identity and per client address. Part of {@link
 * RoomPolicy}, parsed and checked with it.
 *
 * <p>A scheduled event has a start and, optionally, a time the pre-queue opens (an instant, or a
 * lead before the start; without it the pre-queue is open at any time before the start). While the
 * pre-queue is open every visitor without a pass waits, nobody is admitted, and each newcomer draws
 * a random place; at the start admission begins, so those present leave in a uniformly shuffled
 * order and later arrivals queue behind them. Before the pre-queue opens the room works as usual.
 *
 * @param queueing {@code queueing}: {@code fifo} or {@code random}; default fifo
 * @param eventStart {@code event-start}: when admission of a scheduled event begins (ISO-8601
 *     instant, e.g. {@code 2026-12-24T18:00:00Z}); default none
 * @param preQueueOpensAt {@code pre-queue-opens} written as an instant; default none
 * @param preQueueLead {@code pre-queue-opens} written as a duration before the start; default none
 * @param maxQueuesPerIdentity {@code max-queues-per-identity}: most queues of the room one visitor
 *     id waits in at once; 0 for no cap; default 0
 * @param newPlacesPerIpPerMinute {@code new-places-per-ip-per-minute}: most requests per minute one
 *     client address may make that take a new place; 0 for no limit; default 0
 */
public record Fairness(
    Queueing queueing,
    Instant eventStart,
    Instant preQueueOpensAt,
    Duration preQueueLead,
    int maxQueuesPerIdentity,
    int newPlacesPerIpPerMinute) {

  /** Plain first come, first served without caps. */
  public static final Fairness DEFAULTS = new Fairness(Queueing.FIFO, null, null, null, 0, 0);

  static final int MAX_CAP = 1_000_000;

  /** Adds a message per problem, each starting with the property name. */
  void check(List<String> problems) {
    if (queueing == null) {
      problems.add(PolicyProperty.QUEUEING.key() + ": must be set");
    }
    if (preQueueOpensAt != null && preQueueLead != null) {
      problems.add(PolicyProperty.PRE_QUEUE_OPENS.key() + ": an instant or a duration, not both");
    }
    if ((preQueueOpensAt != null || preQueueLead != null) && eventStart == null) {
      problems.add(
          PolicyProperty.PRE_QUEUE_OPENS.key()
              + ": needs "
              + PolicyProperty.EVENT_START.key()
              + " to be set");
    }
    if (preQueueOpensAt != null && eventStart != null && preQueueOpensAt.isAfter(eventStart)) {
      problems.add(
          PolicyProperty.PRE_QUEUE_OPENS.key()
              + ": must not be after "
              + PolicyProperty.EVENT_START.key()
              + " ("
              + eventStart
              + ")");
    }
    if (preQueueLead != null && preQueueLead.isNegative()) {
      problems.add(PolicyProperty.PRE_QUEUE_OPENS.key() + ": must not be negative");
    }
    if (maxQueuesPerIdentity < 0 || maxQueuesPerIdentity > MAX_CAP) {
      problems.add(
          PolicyProperty.MAX_QUEUES_PER_IDENTITY.key() + ": must be between 0 and " + MAX_CAP);
    }
    if (newPlacesPerIpPerMinute < 0 || newPlacesPerIpPerMinute > MAX_CAP) {
      problems.add(
          PolicyProperty.NEW_PLACES_PER_IP_PER_MINUTE.key() + ": must be between 0 and " + MAX_CAP);
    }
  }

  /** When the pre-queue opens; null without an event, or when it is open any time before it. */
  public Instant preQueueOpens() {
    if (preQueueOpensAt != null) {
      return preQueueOpensAt;
    }
    return preQueueLead != null && eventStart != null ? eventStart.minus(preQueueLead) : null;
  }

  /** Whether the pre-queue is open at {@code now}: everyone waits and nobody is admitted. */
  public boolean preQueue(Instant now) {
    if (eventStart == null || !now.isBefore(eventStart)) {
      return false;
    }
    Instant opens = preQueueOpens();
    return opens == null || !now.isBefore(opens);
  }

  /** Whether a newcomer at {@code now} draws a random place rather than going to the back. */
  public boolean randomPlace(Instant now) {
    return queueing == Queueing.RANDOM || preQueue(now);
  }

  /** Whole seconds from {@code now} to the start, rounded up; 0 when it has begun or is unset. */
  public long secondsUntilStart(Instant now) {
    if (eventStart == null || !now.isBefore(eventStart)) {
      return 0;
    }
    long millis = Duration.between(now, eventStart).toMillis();
    return Math.max(1, (millis + 999) / 1000);
  }

  /**
   * Whether a pass issued at {@code issuedAt} still opens the room at {@code now}: once the
   * pre-queue has opened, passes from before it (or, without an opening time, from before the
   * start) do not, so nobody carries a place from before the event into it.
   */
  public boolean honours(Instant issuedAt, Instant now) {
    Instant cutoff = cutoff(now);
    return cutoff == null || !issuedAt.isBefore(cutoff.truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * From {@code now} on, the instant before which sessions do not count: when the pre-queue opened
   * (or, without an opening time, the start); null without an event or before its pre-queue opens.
   */
  public Instant cutoff(Instant now) {
    if (eventStart == null) {
      return null;
    }
    Instant opens = preQueueOpens();
    if (opens != null && now.isBefore(opens)) {
      return null;
    }
    return opens != null ? opens : eventStart;
  }

  /** Whether a cap on queues per visitor id is set. */
  public boolean capsQueuesPerIdentity() {
    return maxQueuesPerIdentity > 0;
  }

  /** Whether new places are limited per client address. */
  public boolean limitsPlacesPerIp() {
    return newPlacesPerIpPerMinute > 0;
  }
}
