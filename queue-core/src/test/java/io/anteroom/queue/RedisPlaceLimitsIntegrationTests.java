package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Both limits on places, against a real Redis with a clock moved by hand. */
class RedisPlaceLimitsIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  static final Duration KEEP = Duration.ofMinutes(10);

  final QueueKeys keys = new QueueKeys("wr");
  MutableClock clock;
  PlaceLimits limits;
  QueueStore store;

  @BeforeEach
  void setUp() {
    sync.flushall();
    clock = new MutableClock(Instant.parse("2026-01-01T00:00:10Z"));
    limits = new RedisPlaceLimits(fixture.connector().commands(), keys, clock);
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  boolean claim(String item) {
    return limits.claim(QueueId.of("shop", item), "v", 2, KEEP, null).block();
  }

  /** Puts {@code v} in the line of {@code item}, with an empty bucket so that it waits. */
  void wait(String item) {
    QueueId queue = QueueId.of("shop", item);
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
    assertThat(store.enqueue(queue, "v", RoomPolicy.DEFAULTS).block().admitted()).isFalse();
  }

  @Test
  void aVisitorIdWaitsInAtMostTheCappedNumberOfQueues() {
    assertThat(claim("1")).isTrue();
    wait("1");
    assertThat(claim("2")).isTrue();
    wait("2");

    assertThat(claim("3")).isFalse();
    assertThat(claim("1")).isTrue();
    assertThat(limits.claim(QueueId.of("shop", "3"), "other", 2, KEEP, null).block()).isTrue();
    assertThat(limits.claim(QueueId.of("hall", "3"), "v", 2, KEEP, null).block()).isTrue();
  }

  @Test
  void aQueueTheVisitorNoLongerWaitsInStopsCounting() {
    claim("1");
    wait("1");
    claim("2");
    wait("2");
    assertThat(claim("3")).isFalse();

    store.release(QueueId.of("shop", "1"), "v").block();
    assertThat(claim("3")).as("claims are not checked while they settle").isFalse();
    clock.advance(RedisPlaceLimits.SETTLING);

    assertThat(claim("3")).isTrue();
    assertThat(sync.zrange(keys.places("shop", "v"), 0, -1)).containsExactlyInAnyOrder("2", "3");
  }

  @Test
  void claimResentLaterNeverMovesTheClaimBackInTime() {
    long sentAt = clock.millis();
    claim("1");
    clock.advance(Duration.ofSeconds(5));
    claim("1");
    long refreshedAt = clock.millis();

    clock.set(Instant.ofEpochMilli(sentAt));
    assertThat(claim("1")).isTrue();

    assertThat(sync.zscore(keys.places("shop", "v"), "1")).isEqualTo((double) refreshedAt);
  }

  @Test
  void theLineOfTheTicketHeldCountsWhenTheFirstPlaceWasNotRecorded() {
    // The first place was taken under an id minted for the request: no claim, only a ticket.
    wait("1");
    PlaceLimits.Held ticket = new PlaceLimits.Held("1", clock.instant());
    clock.advance(RedisPlaceLimits.SETTLING);

    assertThat(limits.claim(QueueId.of("shop", "2"), "v", 1, KEEP, ticket).block()).isFalse();
    assertThat(sync.zrange(keys.places("shop", "v"), 0, -1)).containsExactly("1");
    assertThat(sync.pttl(keys.places("shop", "v")))
        .isPositive()
        .isLessThanOrEqualTo(KEEP.toMillis());

    store.release(QueueId.of("shop", "1"), "v").block();
    assertThat(limits.claim(QueueId.of("shop", "2"), "v", 1, KEEP, ticket).block()).isTrue();
  }

  @Test
  void claimsLiveForTheKeepTimeAfterTheLast() {
    claim("1");
    wait("1");
    assertThat(sync.pttl(keys.places("shop", "v")))
        .isBetween(KEEP.toMillis() - 5_000, KEEP.toMillis());
    clock.advance(KEEP.plusMillis(1));

    assertThat(claim("2")).isTrue();
    assertThat(claim("3")).as("the claim on 1 was older than the keep time").isTrue();
    assertThat(sync.zrange(keys.places("shop", "v"), 0, -1)).containsExactlyInAnyOrder("2", "3");
  }

  @Test
  void anAddressGetsThePerMinuteLimitThenIsRefusedUntilTheNextMinute() {
    for (int i = 0; i < 3; i++) {
      assertThat(limits.countNewPlace("shop", "192.0.2.1", 3).block()).isTrue();
    }
    assertThat(limits.countNewPlace("shop", "192.0.2.1", 3).block()).isFalse();
    assertThat(limits.countNewPlace("shop", "192.0.2.2", 3).block()).isTrue();
    assertThat(limits.secondsToNextWindow()).isEqualTo(50);
    String counter = keys.newPlaces("shop", "192.0.2.1", clock.millis() / 60_000);
    assertThat(sync.get(counter)).isEqualTo("3");
    assertThat(sync.pttl(counter)).isPositive().isLessThanOrEqualTo(120_000);

    clock.advance(Duration.ofSeconds(50));

    assertThat(limits.countNewPlace("shop", "192.0.2.1", 3).block()).isTrue();
  }

  @Test
  void gatewaysAskingAtOnceTogetherGetExactlyTheLimit() {
    try (RedisFixture second = RedisFixture.connect(fixture.uri())) {
      PlaceLimits other = new RedisPlaceLimits(second.connector().commands(), keys, clock);
      List<Mono<Boolean>> asks = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        asks.add((i % 2 == 0 ? limits : other).countNewPlace("shop", "192.0.2.9", 10));
      }

      List<Boolean> answers = Flux.merge(asks).collectList().block();

      assertThat(answers).hasSize(60).filteredOn(allowed -> allowed).hasSize(10);
    }
  }

  @Test
  void oneIdentityJoiningTwoQueuesAtOnceUnderACapOfOneGetsOne() {
    try (RedisFixture second = RedisFixture.connect(fixture.uri())) {
      PlaceLimits other = new RedisPlaceLimits(second.connector().commands(), keys, clock);

      List<Boolean> answers =
          Flux.merge(
                  limits.claim(QueueId.of("shop", "a"), "v", 1, KEEP, null),
                  other.claim(QueueId.of("shop", "b"), "v", 1, KEEP, null))
              .collectList()
              .block();

      assertThat(answers).containsExactlyInAnyOrder(true, false);
    }
  }
}
