package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A newcomer has {@link RoomPolicy#firstReturnWithin} to come back once (a poll, or a request with
 * the ticket); one who never does (a one-shot request, a client that drops cookies) is given up
 * then, and passed over at the head of the line, instead of taking an admission for a whole {@code
 * abandon-after}. One who came back once keeps the place for {@code abandon-after}. 10 a second,
 * abandon-after of 5 minutes, on a clock moved by hand.
 */
class FirstReturnIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();

  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of("admit-per-second", "10", "admit-burst", "1s", "abandon-after", "5m"));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");
  RedisCommands<String, String> sync;
  MutableClock clock;
  QueueStore store;

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
    // Nobody is admitted at once: everyone below queues.
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
  }

  void join(String newcomer, RoomPolicy policy) {
    assertThat(store.join(queue, newcomer, policy).block().admitted()).isFalse();
  }

  @Test
  void aNewcomerWhoNeverComesBackIsPassedOverOnceTheTimeToComeBackHasPassed() {
    join("gone", POLICY);
    join("back", POLICY);
    clock.advance(Duration.ofSeconds(5));
    store.status(queue, "back").block();
    clock.advance(POLICY.firstReturnWithin().minusSeconds(4));

    AdmitResult result = store.admit(queue, POLICY).block();

    assertThat(result.admitted()).isOne();
    assertThat(result.abandoned()).isOne();
    assertThat(sync.zrange(keys.running(queue), 0, -1)).containsExactly("back");
    assertThat(sync.zrange(keys.finished(queue), 0, -1)).containsExactly("gone");
  }

  @Test
  void aNewcomerWhoNeverComesBackStillHasTheTimeToComeBack() {
    join("slow", POLICY);
    clock.advance(POLICY.firstReturnWithin().minusSeconds(1));

    assertThat(store.admit(queue, POLICY).block().admitted()).isOne();
  }

  @Test
  void aNewcomerWhoCameBackOnceKeepsThePlaceForTheWholeAbandonAfter() {
    join("back", POLICY);
    clock.advance(Duration.ofSeconds(5));
    store.status(queue, "back").block();
    clock.advance(POLICY.abandonAfter().minusSeconds(1));

    assertThat(store.admit(queue, POLICY).block().admitted()).isOne();
  }

  @Test
  void aVisitorPlacedWithTheirTicketKeepsTheWholeAbandonAfter() {
    assertThat(store.enqueue(queue, "ticket", POLICY).block().admitted()).isFalse();
    clock.advance(POLICY.abandonAfter().minusSeconds(1));

    assertThat(store.admit(queue, POLICY).block().admitted()).isOne();
  }

  @Test
  void aNewcomerWhoDrewAPlaceAndNeverComesBackIsGivenUpToo() {
    RoomPolicy lottery = PolicyParser.apply("test", POLICY, Map.of("queueing", "random"));
    join("gone", lottery);
    clock.advance(POLICY.firstReturnWithin().plusSeconds(1));

    AdmitResult result = store.admit(queue, lottery).block();

    assertThat(result.admitted()).isZero();
    assertThat(result.abandoned()).isOne();
  }

  @Test
  void aShortAbandonAfterIsTheTimeToComeBack() {
    RoomPolicy brief = PolicyParser.apply("test", POLICY, Map.of("abandon-after", "20s"));
    join("slow", brief);
    clock.advance(Duration.ofSeconds(19));

    assertThat(brief.firstReturnWithin()).isEqualTo(Duration.ofSeconds(20));
    assertThat(store.admit(queue, brief).block().admitted()).isOne();
  }

  @Test
  void aVirtualLineKeepsNewcomersWhoNeverPollIt() {
    QueueStore virtual = RedisQueueStore.shadow(fixture.connector().commands(), keys, clock);
    RoomPolicy policy = ShadowLines.virtual(POLICY);
    sync.hset(
        keys.shadow().state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
    assertThat(virtual.join(queue, "dry-run", policy).block().admitted()).isFalse();
    clock.advance(POLICY.abandonAfter().plusMinutes(1));

    assertThat(virtual.admit(queue, policy).block().admitted()).isOne();
  }
}
