package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The visitor operations on one queue. Each is one Redis round trip, atomic, and safe to repeat
 * after a lost reply. Nothing is sent until the returned {@link Mono} is subscribed; a Redis error
 * or timeout arrives as an error signal, never as a blocked thread.
 */
public interface QueueStore {

  /**
   * Puts {@code visitor} in line, keeping an existing place; admits at once when the line is empty,
   * the policy's mode admits and the rate and cap allow. A visitor who finished joins again, unless
   * they finished at or after this call's time: then it is a repeat of a call made before they
   * left, and they stay finished.
   */
  default Mono<EnqueueResult> enqueue(QueueId queue, String visitor, RoomPolicy policy) {
    return enqueue(queue, visitor, null, policy);
  }

  /**
   * {@link #enqueue(QueueId, String, RoomPolicy)} for a visitor whose ticket says when they joined:
   * one the line does not know, who joined before the line's keys were last begun (the store came
   * back empty since), rejoins ahead of everyone who came after, in the order of joining, to the
   * second; {@link EnqueueResult#added()} is then false.
   *
   * @param joinedAt when the visitor's ticket says they joined, or null for none
   */
  default Mono<EnqueueResult> enqueue(
      QueueId queue, String visitor, Instant joinedAt, RoomPolicy policy) {
    return enqueue(queue, visitor, joinedAt, policy, 1);
  }

  /**
   * {@link #enqueue(QueueId, String, Instant, RoomPolicy)} of a queue with {@code roomShare} of its
   * room's places: a waiting visitor's estimate of how long the room's total active users hold the
   * place back ({@link CapWait}) takes the places freed for other queues into account.
   *
   * @param roomShare the queue's share of the room's places, in (0, 1]: its weight among the room's
   *     queues that are on
   */
  default Mono<EnqueueResult> enqueue(
      QueueId queue, String visitor, Instant joinedAt, RoomPolicy policy, double roomShare) {
    return enqueue(queue, visitor, joinedAt, Double.NaN, policy, roomShare);
  }

  /**
   * {@link #enqueue(QueueId, String, Instant, RoomPolicy, double)} for a visitor whose ticket also
   * names the place they held ({@link EnqueueResult#place()}): one who rejoins takes it back, so a
   * lottery or pre-queue keeps its drawn order through the loss, and a first-come line its exact
   * one.
   *
   * @param place the score the ticket names, NaN for none
   */
  Mono<EnqueueResult> enqueue(
      QueueId queue,
      String visitor,
      Instant joinedAt,
      double place,
      RoomPolicy policy,
      double roomShare);

  /**
   * {@link #enqueue} for an id minted for this very request, which cannot have been in the queue
   * before; cheaper, as it is not looked up in the line. The caller must not pass an id a visitor
   * already held: one who finished would not be queued again. Safe to repeat at any later moment: a
   * repeat finds the visitor in line, admitted, or finished, and leaves them there.
   */
  default Mono<EnqueueResult> join(QueueId queue, String newcomer, RoomPolicy policy) {
    return join(queue, newcomer, policy, 1);
  }

  /** {@link #join(QueueId, String, RoomPolicy)} of a queue with {@code roomShare} of its room. */
  default Mono<EnqueueResult> join(
      QueueId queue, String newcomer, RoomPolicy policy, double roomShare) {
    return enqueue(queue, newcomer, null, policy, roomShare);
  }

  /**
   * Where {@code visitor} stands; counts as a poll for abandonment when waiting. With a policy, a
   * waiting visitor's status says how long its cap holds the place back ({@link CapWait}).
   *
   * @param policy the queue's policy, or null to leave the cap out
   */
  default Mono<VisitorStatus> status(QueueId queue, String visitor, RoomPolicy policy) {
    return status(queue, visitor, policy, 1);
  }

  /** {@link #status(QueueId, String, RoomPolicy)} of a queue with {@code roomShare} of its room. */
  Mono<VisitorStatus> status(QueueId queue, String visitor, RoomPolicy policy, double roomShare);

  /** Where {@code visitor} stands, without the cap; counts as a poll when waiting. */
  default Mono<VisitorStatus> status(QueueId queue, String visitor) {
    return status(queue, visitor, null);
  }

  /** Admits the next visitors at the policy's rate and cap. */
  Mono<AdmitResult> admit(QueueId queue, RoomPolicy policy);

  /**
   * Ends sessions idle past {@link RoomPolicy#sessionIdleLimit()} and trims finished entries past
   * retention.
   */
  Mono<ExpireResult> expire(QueueId queue, RoomPolicy policy);

  /**
   * Records visitors who were given a pass while the queue was off, as running; the running set
   * then lives for twice the session duration after the last registration, unless the queue is on.
   * Visitors in line stay there, and those who finished at or after this call's time stay finished.
   * Each is an active user of the room; one new to it takes a token of the room's new users, except
   * in shadow mode, a dry run that leaves the room's budget as it was.
   *
   * @return how many were new to running
   */
  Mono<Long> register(QueueId queue, Collection<String> visitors, RoomPolicy policy);

  /**
   * Records activity of an admitted visitor under the default policy; false when the visitor is not
   * running.
   */
  default Mono<Boolean> touch(QueueId queue, String visitor) {
    return touch(queue, visitor, null, RoomPolicy.DEFAULTS);
  }

  /**
   * Records activity of an admitted visitor whose pass last had the session confirmed at {@code
   * confirmed}; false when the visitor is not running. A session idle past {@code policy}'s {@link
   * RoomPolicy#sessionIdleLimit()} (in a room of {@link
   * io.anteroom.queue.policy.SessionScope#ROOM}, idle in the whole room) has ended and is ended
   * now, whether or not expiry came by. A session the line does not know that was confirmed before
   * the line's keys were last begun (the store came back empty since) runs again from now, and true
   * is returned.
   *
   * @param confirmed when the pass last had the session confirmed, or null for unknown
   */
  Mono<Boolean> touch(QueueId queue, String visitor, Instant confirmed, RoomPolicy policy);

  /**
   * Ends a session or gives up a place in line; false when the visitor was neither. The visitor
   * stays an active user of the room while running in any of {@code others}.
   *
   * @param others other queues of the room the visitor may hold a session in, such as the items of
   *     their pass
   */
  Mono<Boolean> release(QueueId queue, String visitor, Collection<QueueId> others);

  /** {@link #release(QueueId, String, Collection)} of a visitor known to hold no other item. */
  default Mono<Boolean> release(QueueId queue, String visitor) {
    return release(queue, visitor, List.of());
  }

  /**
   * Sends a visitor whom the origin failed right after their admission back to the front of the
   * line: their session ends and they wait ahead of everyone in line, re-entrants in the order they
   * were first admitted, at most {@code policy.reentry().max()} times per visitor. They stay an
   * active user of the room while running in any of {@code others}.
   *
   * @param admittedAt when the line admitted the visitor, as their pass says: the session this
   *     names goes back once, so neither a copy of the pass nor a repeat ends a later one
   * @param others other queues of the room the visitor may hold a session in
   */
  Mono<Reentered> reenter(
      QueueId queue,
      String visitor,
      Instant admittedAt,
      RoomPolicy policy,
      Collection<QueueId> others);

  /**
   * Finishes as abandoned the waiting visitors who stopped polling, wherever they stand; for lines
   * nobody is admitted from. How many there were (at most {@value RedisQueueStore#EXPIRE_LIMIT}).
   */
  Mono<Long> sweep(QueueId queue, RoomPolicy policy);

  /** Gives up every place in line (a closed queue that clears its line); how many there were. */
  Mono<Long> clear(QueueId queue);

  /** Set sizes and lifetime counters of the queue. */
  Mono<QueueCounts> counts(QueueId queue);

  /**
   * The queue's admissions per second as measured in Redis while people wait (the figure waits are
   * estimated from); 0 when too little was sampled lately to tell.
   */
  Mono<Double> measuredRate(QueueId queue);
}
