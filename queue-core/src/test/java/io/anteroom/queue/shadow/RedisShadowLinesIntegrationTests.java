package io.anteroom.queue.shadow;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisFixture;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The virtual lines of shadow mode: join, admit and expire over the shadow keys, and every branch
 * of shadow_waits.lua, against a real Redis with a clock moved by hand.
 */
class RedisShadowLinesIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueKeys shadow = keys.shadow();
  final QueueId queue = QueueId.of("shop", "42");

  /** Shadow mode, 10 per second, bucket of 10, room for 100, abandon after 30 s. */
  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          new RoomPolicy(
              10,
              Duration.ofSeconds(1),
              100,
              Duration.ofMinutes(1),
              Duration.ofSeconds(30),
              500,
              Duration.ofMinutes(10)),
          Map.of("mode", "shadow"));

  MutableClock clock;
  ShadowLines lines;
  QueueStore store;

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    lines = new RedisShadowLines(fixture.connector().commands(), keys, clock);
    store = lines.store();
  }

  void join(String visitor) {
    store.join(queue, visitor, ShadowLines.virtual(POLICY)).block();
  }

  long recordWaits() {
    return lines.recordWaits(queue, POLICY).block();
  }

  List<String> waits() {
    return sync.lrange(shadow.waits(queue), 0, -1);
  }

  /** Empties the bucket so that newcomers wait instead of going straight in. */
  void drainBucket() {
    sync.hset(shadow.state(queue), "tokens", "0");
    sync.hset(shadow.state(queue), "refill", Long.toString(clock.millis()));
  }

  @Test
  void joinWhenTheVirtualLineHoldsItsMostThenCountsTheNewcomerWithoutKeepingThem() {
    drainBucket();
    List<Boolean> joined =
        reactor.core.publisher.Flux.range(0, (int) ShadowLines.MAX_WAITING + 50)
            .concatMap(i -> lines.join(queue, "v" + i, POLICY))
            .collectList()
            .block();

    assertThat(joined.stream().filter(j -> j)).hasSize((int) ShadowLines.MAX_WAITING);
    assertThat(joined.subList((int) ShadowLines.MAX_WAITING, joined.size())).containsOnly(false);
    assertThat(sync.zcard(shadow.waiting(queue))).isEqualTo(ShadowLines.MAX_WAITING);
    assertThat(sync.zcard(shadow.seen(queue))).isEqualTo(ShadowLines.MAX_WAITING);
  }

  @Test
  void joinAndAdmitWriteOnlyTheShadowKeys() {
    join("v1");
    drainBucket();
    join("v2");
    clock.advance(Duration.ofSeconds(1));
    store.admit(queue, ShadowLines.virtual(POLICY)).block();
    store.expire(queue, POLICY).block();

    assertThat(sync.keys("*")).allMatch(key -> key.startsWith("wr:shadow:"));
    assertThat(sync.zrange(shadow.running(queue), 0, -1)).containsExactlyInAnyOrder("v1", "v2");
  }

  @Test
  void recordWaitsWhenVisitorsWereAdmittedThenPushesAdmissionMinusJoinAndRemovesTheirSeen() {
    drainBucket();
    join("v1");
    clock.advance(Duration.ofMillis(500));
    join("v2");
    clock.advance(Duration.ofSeconds(2));
    store.admit(queue, ShadowLines.virtual(POLICY)).block();
    clock.advance(RedisShadowLines.LAG);

    assertThat(recordWaits()).isEqualTo(2);
    assertThat(waits()).containsExactlyInAnyOrder("2500", "2000");
    assertThat(sync.zcard(shadow.seen(queue))).isZero();
    assertThat(lines.waits(queue).block())
        .isEqualTo(new WaitQuantiles(Duration.ofMillis(2000), Duration.ofMillis(2500), 2));
  }

  @Test
  void recordWaitsWhenAdmittedAtOnceThenWaitIsZero() {
    join("v1");
    clock.advance(RedisShadowLines.LAG);

    assertThat(recordWaits()).isEqualTo(1);
    assertThat(waits()).containsExactly("0");
  }

  @Test
  void recordWaitsWhenAdmittedWithinTheLagThenReadsThemNextTime() {
    join("v1");

    assertThat(recordWaits()).isZero();

    clock.advance(RedisShadowLines.LAG);
    assertThat(recordWaits()).isEqualTo(1);
  }

  @Test
  void recordWaitsWhenNothingWasAdmittedThenPushesNothing() {
    drainBucket();
    join("v1");
    clock.advance(Duration.ofSeconds(5));

    assertThat(recordWaits()).isZero();
    assertThat(sync.exists(shadow.waits(queue))).isZero();
    assertThat(sync.zscore(shadow.seen(queue), "v1")).isNotNull();
  }

  @Test
  void recordWaitsWhenRepeatedThenRecordsEachAdmissionOnce() {
    join("v1");
    clock.advance(RedisShadowLines.LAG);
    long sentAt = clock.millis();
    recordWaits();

    assertThat(recordWaits()).isZero();
    clock.set(Instant.ofEpochMilli(sentAt - 100));
    assertThat(recordWaits()).isZero();
    assertThat(waits()).hasSize(1);
  }

  @Test
  void recordWaitsWhenMoreThanKeptThenKeepsTheNewest() {
    int more = ShadowLines.WAITS_KEPT + 5;
    for (int i = 0; i < more; i++) {
      sync.zadd(shadow.running(queue), clock.millis() - 1, "v" + i);
      sync.zadd(shadow.seen(queue), clock.millis() - 1 - i, "v" + i);
    }
    clock.advance(RedisShadowLines.LAG);

    assertThat(recordWaits()).isEqualTo(ShadowLines.WAITS_KEPT);
    assertThat(sync.llen(shadow.waits(queue))).isEqualTo(ShadowLines.WAITS_KEPT);
    assertThat(sync.zcard(shadow.seen(queue))).isZero();

    sync.zadd(shadow.running(queue), clock.millis(), "late");
    clock.advance(RedisShadowLines.LAG);
    recordWaits();
    assertThat(sync.llen(shadow.waits(queue))).isEqualTo(ShadowLines.WAITS_KEPT);
    assertThat(sync.lindex(shadow.waits(queue), 0)).isEqualTo("0");
  }

  @Test
  void recordWaitsAndExpireGiveEveryKeyTheIdleTimeToLive() {
    drainBucket();
    join("v1");
    join("v2");
    clock.advance(Duration.ofSeconds(1));
    store.admit(queue, ShadowLines.virtual(POLICY)).block();
    store.expire(queue, POLICY).block();
    clock.advance(RedisShadowLines.LAG);
    recordWaits();

    long ttl = POLICY.idleTimeToLive().toMillis();
    for (String key : sync.keys("*")) {
      assertThat(sync.pttl(key)).as(key).isPositive().isLessThanOrEqualTo(ttl);
    }
    assertThat(sync.keys("*")).contains(shadow.waits(queue), shadow.sessions("shop"));
  }

  @Test
  void expireWhenTheLineIsVirtualThenGivesItsKeysTheIdleTimeToLiveInsteadOfRemovingIt() {
    drainBucket();
    join("v1");
    sync.zadd(shadow.running(queue), clock.millis(), "v0");
    sync.zadd(shadow.finished(queue), clock.millis(), "v9");
    for (String key : sync.keys("*")) {
      sync.persist(key);
    }

    store.expire(queue, POLICY).block();

    long ttl = POLICY.idleTimeToLive().toMillis();
    for (String key :
        List.of(
            shadow.waiting(queue),
            shadow.running(queue),
            shadow.finished(queue),
            shadow.seen(queue),
            shadow.state(queue))) {
      assertThat(sync.pttl(key)).as(key).isPositive().isLessThanOrEqualTo(ttl);
    }
  }

  @Test
  void admitWhenVisitorsNeverPollThenNobodyIsAbandoned() {
    drainBucket();
    join("v1");
    clock.advance(POLICY.abandonAfter().multipliedBy(10));

    assertThat(store.admit(queue, ShadowLines.virtual(POLICY)).block().admitted()).isEqualTo(1);
  }
}
