package io.anteroom.gateway.pass;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import reactor.core.publisher.Mono;

/**
 * Confirms in Redis that a pass holder's session still runs, recording the activity (the {@code
 * touch} script), at most once per visitor and queue per check interval on this gateway: requests
 * that find a confirmation younger than that share it, including concurrent ones and copies of the
 * same pass. A session ended through this gateway (the origin's release, or its failure sending the
 * visitor back to the front of the line) is known here at once, and stays known apart from the
 * confirmations ({@link ReleasedSessions}): however many passes are confirmed, a copy of an ended
 * pass never opens its item again. Answers {@code anteroom.gateway.pass.checks{room,outcome}} for
 * each call made to Redis.
 */
public final class SessionChecks {

  /** What Redis said of the session. */
  public enum State {
    /** Running: its activity is recorded. */
    RUNNING,
    /** Ended: expired, released, or never recorded. */
    ENDED,
    /** Redis could not be asked (an error, or the breaker open). */
    UNKNOWN
  }

  /**
   * A confirmation.
   *
   * @param state what Redis said
   * @param at when it was asked
   */
  public record Check(State state, Instant at) {}

  /**
   * Most confirmations kept. They are only what Redis said, asked again when missing: when full,
   * those older than their interval go, and if three quarters are still young, all.
   */
  static final int MAX_KEPT = 100_000;

  /** Most session ends kept ({@link ReleasedSessions}): past it, passes ask Redis. */
  static final int MAX_ENDED = 100_000;

  private record Key(QueueId queue, String visitor) {}

  /**
   * @param atMillis when Redis was asked
   * @param freshUntilMillis when it is one check interval old
   */
  private record Kept(long atMillis, long freshUntilMillis, Mono<Check> check) {}

  private final QueueStore store;
  private final RedisGuard redis;
  private final Clock clock;
  private final MeterRegistry meters;
  private final Map<Key, Kept> kept = new ConcurrentHashMap<>();
  private final int maxKept;

  private final ReleasedSessions ended;

  public SessionChecks(QueueStore store, RedisGuard redis, Clock clock, MeterRegistry meters) {
    this(store, redis, clock, meters, MAX_KEPT, MAX_ENDED);
  }

  /** With other bounds than production's, so a test can fill them. */
  SessionChecks(
      QueueStore store,
      RedisGuard redis,
      Clock clock,
      MeterRegistry meters,
      int maxKept,
      int maxEnded) {
    this.store = store;
    this.redis = redis;
    this.clock = clock;
    this.meters = meters;
    this.maxKept = maxKept;
    this.ended = new ReleasedSessions(clock, maxEnded);
  }

  /**
   * The latest confirmation of {@code visitor}'s session in {@code queue} if it is younger than one
   * {@link RoomPolicy#sessionCheck()}; otherwise a new one.
   *
   * @param confirmed when the pass says the session was last confirmed: a session the store lost
   *     since runs again ({@link QueueStore#touch(QueueId, String, Instant, RoomPolicy)})
   * @param policy the queue's policy: its session's idle limit and the room's session scope
   */
  public Mono<Check> confirm(QueueId queue, String visitor, Instant confirmed, RoomPolicy policy) {
    long now = clock.millis();
    long fresh = policy.sessionCheck().toMillis();
    long end = ended.endedAt(queue, visitor);
    if (end >= confirmed.toEpochMilli() && now - end < fresh) {
      return Mono.just(new Check(State.ENDED, Instant.ofEpochMilli(end)));
    }
    Key key = new Key(queue, visitor);
    Kept known = kept.get(key);
    if (known != null && now - known.atMillis() < fresh) {
      return known.check();
    }
    Kept asked =
        new Kept(
            now, now + fresh, ask(queue, visitor, confirmed, policy, Instant.ofEpochMilli(now)));
    if (kept.size() >= maxKept) {
      makeRoom(now);
    }
    return kept.compute(key, (k, old) -> old != null && now - old.atMillis() < fresh ? old : asked)
        .check();
  }

  /**
   * Records that the session ended, so copies of its pass stop here without asking Redis: kept one
   * idle limit of the item ({@link RoomPolicy#sessionIdleLimit()}), by when every pass confirmed
   * before now has ended.
   */
  public void ended(QueueId queue, String visitor, RoomPolicy policy) {
    ended.ended(queue, visitor, policy.sessionIdleLimit());
    // A confirmation from before the end would outlive it were the end forgotten.
    kept.remove(new Key(queue, visitor));
  }

  /**
   * Whether the session may have ended after {@code checked}, when a pass last had it confirmed, so
   * the pass must be confirmed before it opens the item again, due or not: the session ended
   * through this gateway since (that pass is a copy from before the end, and {@link #confirm} says
   * so without asking Redis), or this gateway forgot such ends to keep its bound (Redis says). A
   * pass from a later admission was confirmed after the end, and goes on.
   */
  public boolean mayHaveEndedSince(QueueId queue, String visitor, Instant checked) {
    long millis = checked.toEpochMilli();
    return ended.endedAt(queue, visitor) >= millis || ended.mayHaveForgotten(millis);
  }

  /** Session ends kept now. */
  int endsKept() {
    return ended.size();
  }

  /** Drops the confirmations older than their interval; all of them when that is not enough. */
  private synchronized void makeRoom(long now) {
    if (kept.size() < maxKept) {
      return;
    }
    kept.values().removeIf(known -> known.freshUntilMillis() <= now);
    if (kept.size() >= maxKept - maxKept / 4) {
      kept.clear();
    }
  }

  private Mono<Check> ask(
      QueueId queue, String visitor, Instant confirmed, RoomPolicy policy, Instant at) {
    return redis
        .call(store.touch(queue, visitor, confirmed, policy))
        .map(running -> running ? State.RUNNING : State.ENDED)
        .onErrorReturn(State.UNKNOWN)
        .doOnNext(state -> counter(queue.room(), state).increment())
        .map(state -> new Check(state, at))
        .cache();
  }

  private Counter counter(String room, State state) {
    return Counter.builder("anteroom.gateway.pass.checks")
        .description("Pass holders' sessions confirmed in Redis, by what Redis said")
        .tag("room", room)
        .tag("outcome", state.name().toLowerCase(java.util.Locale.ROOT))
        .register(meters);
  }
}
