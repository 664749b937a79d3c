package io.anteroom.gateway.line;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.line.Refusal.Reason;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.Fairness;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Duration;
import java.util.Optional;
import reactor.core.publisher.Mono;

/**
 * The room's limits on new places, checked before a visitor without a ticket for the queue meets
 * the line: new places per client address per minute, then queues per visitor id. A check that
 * cannot reach Redis lets the request on to the line, whose failure policy then answers.
 *
 * <p>The cap on queues per visitor id records nothing for an id minted for the request (a newcomer
 * without cookies cannot be over any cap, and a record per such request would fill Redis); the
 * ticket the newcomer gets names that first line, and the visitor's next claim counts it.
 */
final class PlaceGuard {

  /** Retry-After of a refusal by the cap on queues per visitor id, which has no window. */
  static final long QUEUE_CAP_RETRY_SECONDS = 60;

  private final PlaceLimits limits;
  private final RedisGuard redis;
  private final ThrottledWarnings warnings;

  PlaceGuard(PlaceLimits limits, RedisGuard redis, ThrottledWarnings warnings) {
    this.limits = limits;
    this.redis = redis;
    this.warnings = warnings;
  }

  /**
   * Empty when {@code visitor} may take a place in {@code queue}; why not otherwise.
   *
   * @param minted true when {@code visitor} was minted for this very request
   * @param held a ticket of the visitor for another queue of the room, or null
   */
  Mono<Optional<Refusal>> check(Visit visit, String visitor, boolean minted, Ticket held) {
    QueueId queue = visit.queue();
    RoomPolicy policy = visit.policy();
    Fairness fairness = policy.fairness();
    boolean perVisitor = fairness.capsQueuesPerIdentity() && !minted;
    if (!fairness.limitsPlacesPerIp() && !perVisitor) {
      return Mono.just(Optional.empty());
    }
    return perAddress(visit, fairness)
        .flatMap(
            refusal ->
                refusal.isPresent() || !perVisitor
                    ? Mono.just(refusal)
                    : perVisitor(queue, visitor, held, policy));
  }

  /**
   * How long a claim counts without being renewed: twice the longer of session-duration and
   * abandon-after, the time scale of a visit. A visitor still waiting in several lines after that
   * may take one more place; the line of the ticket they hold always counts.
   */
  static Duration keep(RoomPolicy policy) {
    Duration longer =
        policy.sessionDuration().compareTo(policy.abandonAfter()) > 0
            ? policy.sessionDuration()
            : policy.abandonAfter();
    return longer.multipliedBy(2);
  }

  private Mono<Optional<Refusal>> perAddress(Visit visit, Fairness fairness) {
    if (!fairness.limitsPlacesPerIp()) {
      return Mono.just(Optional.empty());
    }
    QueueId queue = visit.queue();
    return guarded(
        queue,
        limits
            .countNewPlace(queue.room(), visit.address().get(), fairness.newPlacesPerIpPerMinute())
            .map(
                allowed ->
                    allowed
                        ? Optional.<Refusal>empty()
                        : Optional.of(
                            new Refusal(Reason.PLACES_PER_IP, limits.secondsToNextWindow()))));
  }

  private Mono<Optional<Refusal>> perVisitor(
      QueueId queue, String visitor, Ticket held, RoomPolicy policy) {
    PlaceLimits.Held line =
        held == null ? null : new PlaceLimits.Held(held.queue().item(), held.joinedAt());
    return guarded(
        queue,
        limits
            .claim(queue, visitor, policy.fairness().maxQueuesPerIdentity(), keep(policy), line)
            .map(
                allowed ->
                    allowed
                        ? Optional.<Refusal>empty()
                        : Optional.of(
                            new Refusal(Reason.QUEUES_PER_IDENTITY, QUEUE_CAP_RETRY_SECONDS))));
  }

  private Mono<Optional<Refusal>> guarded(QueueId queue, Mono<Optional<Refusal>> check) {
    return redis
        .call(check)
        .onErrorResume(
            error -> {
              warnings.warn(
                  queue.room() + ":limits",
                  "room={} queue={} place limits not checked: {}",
                  queue.room(),
                  queue.item(),
                  error.toString());
              return Mono.just(Optional.empty());
            });
  }
}
