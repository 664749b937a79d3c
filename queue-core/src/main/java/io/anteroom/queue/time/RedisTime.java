package io.anteroom.queue.time;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The time every gateway and worker decides by: this machine's clock corrected by its offset from
 * Redis's clock ({@code TIME}), measured every {@link #SYNC}. Buckets, last-seen times, session
 * activity and abandonment all compare times written by different processes; on their own clocks,
 * one running ahead would hold back admission for everyone for the length of its lead, and one
 * behind by close to {@code abandon-after} would make the line look abandoned. On Redis's clock
 * they agree to within half a round trip.
 *
 * <p>An offset is taken only from a reply that came back within {@link #MAX_ROUND_TRIP}, and
 * replaces the last one only when they differ by more than {@link #SETTLE}, so the time does not
 * wander back and forth by the round trip's noise. Until the first measurement, and while Redis
 * cannot be asked, the last offset stays in force (at first none).
 */
public final class RedisTime extends Clock {

  /** Time between measurements. */
  public static final Duration SYNC = Duration.ofSeconds(1);

  static final long MAX_ROUND_TRIP_MS = 50;
  static final long SETTLE_MS = 2;
  static final Duration MAX_ROUND_TRIP = Duration.ofMillis(MAX_ROUND_TRIP_MS);
  static final Duration SETTLE = Duration.ofMillis(SETTLE_MS);

  private final Clock base;
  private volatile long offsetMs;

  /**
   * @param base this machine's clock
   */
  public RedisTime(Clock base) {
    this.base = base;
  }

  /** How far Redis's clock is ahead of this machine's, as last measured. */
  public Duration offset() {
    return Duration.ofMillis(offsetMs);
  }

  /**
   * Measures the offset once through {@code commands}; completes empty also when Redis fails or the
   * reply came too late to tell (the last offset stays).
   */
  public Mono<Void> sync(RedisClusterAsyncCommands<String, String> commands) {
    return Mono.defer(
        () -> {
          long sent = base.millis();
          return Mono.fromCompletionStage(commands::time)
              .doOnNext(reply -> measured(sent, base.millis(), reply))
              .then();
        });
  }

  private void measured(long sent, long received, List<String> time) {
    if (received - sent > MAX_ROUND_TRIP_MS || time.size() < 2) {
      return;
    }
    long redisMs = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    long offset = redisMs - (sent + received) / 2;
    if (Math.abs(offset - offsetMs) > SETTLE_MS) {
      offsetMs = offset;
    }
  }

  @Override
  public long millis() {
    return base.millis() + offsetMs;
  }

  @Override
  public Instant instant() {
    return base.instant().plusMillis(offsetMs);
  }

  @Override
  public ZoneId getZone() {
    return base.getZone();
  }

  /** This time in another zone, following this one's offset as it changes. */
  @Override
  public Clock withZone(ZoneId zone) {
    RedisTime time = this;
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return zone;
      }

      @Override
      public Clock withZone(ZoneId other) {
        return time.withZone(other);
      }

      @Override
      public Instant instant() {
        return time.instant();
      }
    };
  }
}
