package io.anteroom.queue.time;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * The time every gateway and worker decides by: Redis's clock ({@code TIME}) as last measured,
 * carried forward on this machine's monotonic timer ({@link System#nanoTime()}), measured every
 * {@link #SYNC}. Buckets, last-seen times, session activity and abandonment all compare times
 * written by different processes; the scripts bound every caller's now by Redis's own clock ({@code
 * clock.lua}), and on this time the callers agree with it to within half a round trip. A step of
 * this machine's wall clock between two measurements changes nothing: only the monotonic timer is
 * read between them.
 *
 * <p>The first reply is taken whatever its round trip (its error is at most half of it, better than
 * a wall clock that may be minutes off); later ones replace the measurement when they came back
 * within {@link #MAX_ROUND_TRIP} and disagree by more than {@link #SETTLE} (so the time does not
 * wander by the round trip's noise), or when they disagree by more than both round trips can
 * explain (Redis's clock moved: a failover to another machine). Until the first measurement the
 * time is this machine's wall clock; while Redis cannot be asked, the last measurement stays.
 */
public final class RedisTime extends Clock {

  /** Time between measurements. */
  public static final Duration SYNC = Duration.ofSeconds(1);

  static final long MAX_ROUND_TRIP_MS = 50;
  static final long SETTLE_MS = 2;
  static final Duration MAX_ROUND_TRIP = Duration.ofMillis(MAX_ROUND_TRIP_MS);
  static final Duration SETTLE = Duration.ofMillis(SETTLE_MS);

  private final Clock base;
  private final LongSupplier nanos;
  private volatile Measurement last;

  /** Redis's time at a moment of the monotonic timer, and the round trip it was measured in. */
  private record Measurement(long redisMs, long nanos, long roundTripMs) {
    long at(long now) {
      return redisMs + Math.floorDiv(now - nanos, 1_000_000L);
    }
  }

  /**
   * @param base this machine's wall clock, only read until the first measurement
   */
  public RedisTime(Clock base) {
    this(base, System::nanoTime);
  }

  RedisTime(Clock base, LongSupplier nanos) {
    this.base = base;
    this.nanos = nanos;
  }

  /** Whether Redis's clock has been measured at least once. */
  public boolean measured() {
    return last != null;
  }

  /** How far this time is ahead of this machine's wall clock; zero before the first measurement. */
  public Duration offset() {
    return last == null ? Duration.ZERO : Duration.ofMillis(millis() - base.millis());
  }

  /**
   * Measures Redis's clock once through {@code commands}; completes empty also when the reply could
   * not improve on the last measurement, and with Redis's error when Redis fails (the last
   * measurement stays).
   */
  public Mono<Void> sync(RedisClusterAsyncCommands<String, String> commands) {
    return Mono.defer(
        () -> {
          long sent = nanos.getAsLong();
          return Mono.fromCompletionStage(commands::time)
              .doOnNext(reply -> measured(sent, nanos.getAsLong(), reply))
              .then();
        });
  }

  private void measured(long sent, long received, List<String> time) {
    if (time.size() < 2) {
      return;
    }
    long redisMs = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    long roundTripMs = (received - sent) / 1_000_000L;
    long middle = sent + (received - sent) / 2;
    Measurement before = last;
    if (before != null) {
      long error = Math.abs(redisMs - before.at(middle));
      boolean finer = roundTripMs <= MAX_ROUND_TRIP_MS && error > SETTLE_MS;
      boolean moved = error > (roundTripMs + before.roundTripMs()) / 2 + SETTLE_MS;
      if (!finer && !moved) {
        return;
      }
    }
    last = new Measurement(redisMs, middle, roundTripMs);
  }

  @Override
  public long millis() {
    Measurement known = last;
    return known == null ? base.millis() : known.at(nanos.getAsLong());
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
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
