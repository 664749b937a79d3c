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
 * visitor back to the front of the line) is known here at once. Answers {@code
 * anteroom.gateway.pass.checks{room,outcome}} for each call made to Redis.
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
   * Most confirmations kept; when full, all are dropped and the map fills again, so it stays
   * bounded without bookkeeping on every request.
   */
  static final int MAX_KEPT = 100_000;

  private record Key(QueueId queue, String visitor) {}

  /**
   * @param ended true when a session end through this gateway put it here ({@link #ended})
   */
  private record Kept(long atMillis, Mono<Check> check, boolean ended) {}

  private final QueueStore store;
  private final RedisGuard redis;
  private final Clock clock;
  private final MeterRegistry meters;
  private final Map<Key, Kept> kept = new ConcurrentHashMap<>();

  public SessionChecks(QueueStore store, RedisGuard redis, Clock clock, MeterRegistry meters) {
    this.store = store;
    this.redis = redis;
    this.clock = clock;
    this.meters = meters;
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
    Key key = new Key(queue, visitor);
    Kept known = kept.get(key);
    if (known != null && now - known.atMillis() < fresh) {
      return known.check();
    }
    Kept asked =
        new Kept(now, ask(queue, visitor, confirmed, policy, Instant.ofEpochMilli(now)), false);
    if (kept.size() >= MAX_KEPT) {
      kept.clear();
    }
    return kept.compute(key, (k, old) -> old != null && now - old.atMillis() < fresh ? old : asked)
        .check();
  }

  /** Records that the session ended, so copies of its pass stop here without asking Redis. */
  public void ended(QueueId queue, String visitor) {
    long now = clock.millis();
    kept.put(
        new Key(queue, visitor),
        new Kept(now, Mono.just(new Check(State.ENDED, Instant.ofEpochMilli(now))), true));
  }

  /**
   * Whether the session ended through this gateway after {@code checked}, when a pass last had it
   * confirmed: that pass is a copy from before the end, not yet due for a confirmation, and stops
   * here at once. A pass from a later admission was confirmed after the end, and is not stopped.
   */
  public boolean endedSince(QueueId queue, String visitor, Instant checked) {
    Kept known = kept.get(new Key(queue, visitor));
    return known != null && known.ended() && known.atMillis() >= checked.toEpochMilli();
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
