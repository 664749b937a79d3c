package io.anteroom.gateway.line;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.queue.CapWait;
import io.anteroom.queue.EnqueueResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.VisitorStatus;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * A visitor meeting the line of an active queue: one Redis round trip that says whether they are
 * in, or where they stand. A visitor with a ticket for this queue is looked up; a newcomer, or a
 * ticket holder whose place is gone, joins (again) once past the room's defences.
 */
public final class Line {

  /**
   * Where the visitor stands after meeting the line.
   *
   * @param visitor the visitor id now in the line or admitted
   * @param admitted true when the visitor may enter
   * @param position 1-based place in line; 0 when admitted
   * @param waiting people in line
   * @param joined true when this call put the visitor in line (a new ticket is due)
   * @param requeued true when an earlier place had been given up and the visitor joined again
   * @param startsInSeconds while a scheduled event's pre-queue is open, whole seconds until its
   *     start (at least 1); otherwise 0
   * @param measuredRate while waiting, the queue's admissions per second as measured lately; 0 when
   *     not known
   * @param sessionSince when admitted earlier: the start of the session in Redis (epoch ms; the
   *     last activity once the visitor has used a pass); 0 when not admitted, or admitted by this
   *     very call
   * @param capWait while waiting: how long the caps hold the place back
   * @param front while waiting: the place is at the front, kept for those the origin failed right
   *     after admission ({@link QueueStore#reenter}); they will be let in again first
   * @param lineAdmittedAt when admitted: when the line let the visitor in (epoch ms), as Redis
   *     holds it; 0 for one running without the line's admission (a pass given while the queue was
   *     off), and while waiting
   * @param place when this call put the visitor in line: the score of the place, for the ticket
   *     ({@link Ticket#place()}); NaN otherwise
   */
  public record Outcome(
      String visitor,
      boolean admitted,
      long position,
      long waiting,
      boolean joined,
      boolean requeued,
      long startsInSeconds,
      double measuredRate,
      long sessionSince,
      CapWait capWait,
      boolean front,
      long lineAdmittedAt,
      double place) {

    /**
     * Admitted earlier, with the session's last activity in Redis at {@code sessionSince}, let in
     * by the line at {@code lineAdmittedAt} (0: not by the line).
     */
    public static Outcome admitted(
        String visitor, long waiting, long sessionSince, long lineAdmittedAt) {
      return new Outcome(
          visitor,
          true,
          0,
          waiting,
          false,
          false,
          0,
          0,
          sessionSince,
          CapWait.NONE,
          false,
          lineAdmittedAt,
          Double.NaN);
    }

    /** Waiting at a place found in line, as {@code status} says. */
    public static Outcome waiting(String visitor, VisitorStatus status, long startsInSeconds) {
      return new Outcome(
          visitor,
          false,
          status.position(),
          status.waiting(),
          false,
          false,
          startsInSeconds,
          status.measuredRate(),
          0,
          status.capWait(),
          status.front(),
          0,
          Double.NaN);
    }

    /** Waiting at a place, what the caps hold back not known. */
    public static Outcome waiting(
        String visitor, long position, long waiting, long startsInSeconds, double measuredRate) {
      return new Outcome(
          visitor,
          false,
          position,
          waiting,
          false,
          false,
          startsInSeconds,
          measuredRate,
          0,
          CapWait.NONE,
          false,
          0,
          Double.NaN);
    }

    /** What a join did: in line (or admitted at once) by this very call. */
    public static Outcome joined(String visitor, EnqueueResult result, long startsInSeconds) {
      return new Outcome(
          visitor,
          result.admitted(),
          result.position(),
          result.waiting(),
          true,
          result.requeued(),
          result.admitted() ? 0 : startsInSeconds,
          result.measuredRate(),
          0,
          result.capWait(),
          false,
          result.lineAdmittedAt(),
          result.place());
    }

    /**
     * When Redis last recorded activity of the session this outcome admits to, or null when this
     * very call admitted the visitor (now).
     */
    public Instant lastActivity() {
      return sessionSince > 0 ? Instant.ofEpochMilli(sessionSince) : null;
    }

    /** When the line let the visitor in, or null when it did not (or they are waiting). */
    public Instant admission() {
      return lineAdmittedAt > 0 ? Instant.ofEpochMilli(lineAdmittedAt) : null;
    }
  }

  private final QueueStore store;
  private final RedisGuard redis;
  private final LineEvents events;
  private final RoomShares shares;
  private final Clock clock;

  /**
   * @param shares each queue's share of its room, for how long the room's limits hold a place back
   */
  public Line(
      QueueStore store, RedisGuard redis, LineEvents events, RoomShares shares, Clock clock) {
    this.store = store;
    this.redis = redis;
    this.events = events;
    this.shares = shares;
    this.clock = clock;
  }

  /**
   * Where the holder of a ticket for this queue stands: in line (a poll, for abandonment) or
   * admitted; empty when the place is gone (given up, the session ended, or never taken), and the
   * visitor must join again as anyone else.
   *
   * @return the outcome; an error when Redis failed or the breaker in front of it is open
   */
  public Mono<Optional<Outcome>> find(QueueId queue, Ticket ticket, RoomPolicy policy) {
    String visitor = ticket.visitor();
    return redis.call(
        store
            .status(queue, visitor, policy, shares.share(queue, policy))
            .map(
                status ->
                    switch (status.state()) {
                      case ADMITTED -> {
                        events.waited(
                            queue.room(),
                            ticket.joinedAt().toEpochMilli(),
                            status.lineAdmittedAt());
                        yield Optional.of(
                            Outcome.admitted(
                                visitor,
                                status.waiting(),
                                status.admittedAt(),
                                status.lineAdmittedAt()));
                      }
                      case WAITING ->
                          Optional.of(Outcome.waiting(visitor, status, startsIn(policy)));
                      case FINISHED, UNKNOWN -> Optional.<Outcome>empty();
                    }));
  }

  /**
   * Puts {@code visitor} in line, keeping a place they hold; admits at once when the line and the
   * room allow.
   *
   * @param minted true when {@code visitor} was minted for this very request, so nobody can hold a
   *     place under it yet and joining needs no look-up (never for an id derived from an identity,
   *     named by a solved challenge or carried by a ticket, which others may share)
   * @param back the visitor's ticket for this queue when they come back with it, or null: one whose
   *     place the store lost takes it back, at the place it names ({@link
   *     QueueStore#enqueue(QueueId, String, Instant, double, RoomPolicy, double)})
   * @return the outcome; an error when Redis failed or the breaker in front of it is open
   */
  public Mono<Outcome> join(
      QueueId queue, String visitor, boolean minted, Ticket back, RoomPolicy policy) {
    double share = shares.share(queue, policy);
    return redis.call(
        (minted
                ? store.join(queue, visitor, policy, share)
                : back == null
                    ? store.enqueue(queue, visitor, null, policy, share)
                    : store.enqueue(queue, visitor, back.joinedAt(), back.place(), policy, share))
            .doOnNext(
                result -> {
                  if (result.added()) {
                    events.joined(queue.room(), result.admitted());
                  }
                })
            .map(result -> Outcome.joined(visitor, result, startsIn(policy))));
  }

  /**
   * Where a visitor with a ticket for this queue stands, without joining anyone: present while they
   * wait in line (and counted as a poll), empty otherwise. For a closed queue that keeps its line.
   */
  public Mono<Optional<Outcome>> standing(QueueId queue, String visitor) {
    return redis.call(
        store
            .status(queue, visitor)
            .map(
                status ->
                    status.state() == VisitorStatus.State.WAITING
                        ? Optional.of(Outcome.waiting(visitor, status, 0))
                        : Optional.empty()));
  }

  /** Seconds until a scheduled start while its pre-queue is open; 0 otherwise. */
  private long startsIn(RoomPolicy policy) {
    Instant now = clock.instant();
    return policy.fairness().preQueue(now) ? policy.fairness().secondsUntilStart(now) : 0;
  }
}
