package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The audit stream against a real Redis: entries read back newest first, both bounds kept. */
class RedisAuditTrailIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = new MutableClock(Instant.now());
  RedisClient client;
  StatefulRedisConnection<String, String> connection;
  RedisCommands<String, String> sync;

  @BeforeEach
  void connect() {
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    sync = connection.sync();
    sync.flushall();
  }

  @AfterEach
  void close() {
    connection.close();
    client.shutdown();
  }

  @Test
  void entriesAreReadBackNewestFirstWithEveryField() {
    RedisAuditTrail trail = new RedisAuditTrail(connection.async(), keys, clock);

    trail.append(entry("room-settings", "{admit-per-second=4}", "{admit-per-second=80}")).block();
    trail.append(entry("release", "visitor abc", "released")).block();

    List<AuditEntry> recent = trail.recent(10).block();
    assertThat(recent).extracting(AuditEntry::what).containsExactly("release", "room-settings");
    AuditEntry first = recent.get(1);
    assertThat(first.id()).matches("\\d+-\\d+");
    assertThat(first)
        .extracting(
            AuditEntry::at,
            AuditEntry::who,
            AuditEntry::from,
            AuditEntry::target,
            AuditEntry::old,
            AuditEntry::now)
        .containsExactly(
            "2026-12-04T13:00:00Z",
            "alice",
            "10.0.0.7",
            "shop",
            "{admit-per-second=4}",
            "{admit-per-second=80}");
    assertThat(trail.recent(1).block()).extracting(AuditEntry::what).containsExactly("release");
    assertThat(sync.type(keys.audit())).isEqualTo("stream");
  }

  @Test
  void theStreamKeepsAboutTheLastMaxEntries() {
    RedisAuditTrail trail =
        new RedisAuditTrail(connection.async(), keys, clock, 100, RedisAuditTrail.MAX_AGE);

    for (int i = 0; i < 500; i++) {
      trail.append(entry("change-" + i, "a", "b")).block();
    }

    assertThat(sync.xlen(keys.audit()))
        .as("Redis trims whole nodes of 100 entries: at least the bound, less than a node more")
        .isBetween(100L, 199L);
    assertThat(trail.recent(1).block()).extracting(AuditEntry::what).containsExactly("change-499");
  }

  @Test
  void entriesOlderThanMaxAgeAreDroppedOnTheNextAppend() {
    long now = clock.millis();
    long day = Duration.ofDays(1).toMillis();
    sync.xadd(keys.audit(), new XAddArgs().id((now - 31 * day) + "-0"), Map.of("what", "too-old"));
    sync.xadd(keys.audit(), new XAddArgs().id((now - 29 * day) + "-0"), Map.of("what", "kept"));
    RedisAuditTrail trail = new RedisAuditTrail(connection.async(), keys, clock);

    trail.append(entry("new", "a", "b")).block();

    assertThat(sync.xrange(keys.audit(), Range.unbounded()))
        .extracting(StreamMessage::getBody)
        .extracting(body -> body.get("what"))
        .containsExactly("kept", "new");
  }

  private static AuditEntry entry(String what, String old, String now) {
    return new AuditEntry(
        null, "2026-12-04T13:00:00Z", "alice", "10.0.0.7", what, "shop", old, now);
  }
}
