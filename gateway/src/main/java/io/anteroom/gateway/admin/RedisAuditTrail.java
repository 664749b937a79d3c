package io.anteroom.gateway.admin;

import io.anteroom.queue.QueueKeys;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The audit trail in one Redis stream shared by every gateway, {@link QueueKeys#audit()}:
 *
 * <pre>
 * XADD wr:audit MAXLEN ~ 10000 * at 2026-12-04T13:02:11Z who alice from 10.0.0.7
 *      what room-settings target shop old {admit-per-second=4} new {admit-per-second=80}
 * XTRIM wr:audit MINID &lt;now - 30 days in ms&gt;
 * XREVRANGE wr:audit + - COUNT 100
 * </pre>
 *
 * Both bounds hold: at most about {@value #MAX_ENTRIES} entries (Redis trims whole nodes, so a few
 * more may stay), none older than {@link #MAX_AGE}; so the trail keeps the last 10,000 changes or
 * the last 30 days, whichever is less, and its memory is bounded however busy a script makes it.
 * Ids are Redis' time, which the age bound compares with this gateway's clock; a skew of seconds is
 * nothing against 30 days.
 */
final class RedisAuditTrail {

  static final int MAX_ENTRIES = 10_000;
  static final Duration MAX_AGE = Duration.ofDays(30);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final String key;
  private final Clock clock;
  private final long maxEntries;
  private final Duration maxAge;

  RedisAuditTrail(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Clock clock) {
    this(commands, keys, clock, MAX_ENTRIES, MAX_AGE);
  }

  /** A trail with other bounds, for tests. */
  RedisAuditTrail(
      RedisClusterAsyncCommands<String, String> commands,
      QueueKeys keys,
      Clock clock,
      long maxEntries,
      Duration maxAge) {
    this.commands = commands;
    this.key = keys.audit();
    this.clock = clock;
    this.maxEntries = maxEntries;
    this.maxAge = maxAge;
  }

  /** Adds {@code entry} (its id is ignored) and drops what is past either bound. */
  Mono<Void> append(AuditEntry entry) {
    XAddArgs bounded = XAddArgs.Builder.maxlen(maxEntries).approximateTrimming();
    return Mono.fromCompletionStage(() -> commands.xadd(key, bounded, entry.fields()))
        .then(
            Mono.fromCompletionStage(() -> commands.xtrim(key, XTrimArgs.Builder.minId(oldest()))))
        .then();
  }

  /** The last {@code count} entries, newest first. */
  Mono<List<AuditEntry>> recent(int count) {
    return Mono.fromCompletionStage(
            () -> commands.xrevrange(key, Range.unbounded(), Limit.from(count)))
        .map(
            messages ->
                messages.stream()
                    .map(message -> AuditEntry.of(message.getId(), message.getBody()))
                    .toList());
  }

  /** The id before which entries are too old. */
  private String oldest() {
    return Math.max(0, clock.millis() - maxAge.toMillis()) + "-0";
  }
}
