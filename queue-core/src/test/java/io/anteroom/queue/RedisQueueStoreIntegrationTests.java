package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.VisitorStatus.State;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every branch of the queue scripts, against a real Redis with a clock moved by hand. */
class RedisQueueStoreIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  final RedisCommands<String, String> sync = fixture.sync();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");
  MutableClock clock;
  QueueStore store;

  /** 10 per second, bucket of 10, room for 100, sessions of 1 minute, abandon after 30 s. */
  static final RoomPolicy POLICY =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          100,
          Duration.ofMinutes(1),
          Duration.ofSeconds(30),
          500,
          Duration.ofMinutes(10));

  @BeforeEach
  void setUp() {
    clock = MutableClock.startingAt2026();
    store = new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  EnqueueResult enqueue(String visitor) {
    return enqueue(visitor, POLICY);
  }

  EnqueueResult enqueue(String visitor, RoomPolicy policy) {
    return store.enqueue(queue, visitor, policy).block();
  }

  AdmitResult admit(RoomPolicy policy) {
    return store.admit(queue, policy).block();
  }

  VisitorStatus status(String visitor) {
    return store.status(queue, visitor).block();
  }

  /** Empties the bucket so that visitors queue instead of going straight in. */
  void drainBucket() {
    sync.hset(keys.state(queue), "tokens", "0");
    sync.hset(keys.state(queue), "refill", Long.toString(clock.millis()));
  }

  List<String> waiting() {
    return sync.zrange(keys.waiting(queue), 0, -1);
  }

  List<String> running() {
    return sync.zrange(keys.running(queue), 0, -1);
  }

  List<String> finished() {
    return sync.zrange(keys.finished(queue), 0, -1);
  }

  /**
   * Runs {@code call} with the clock at {@code sentAt}, so the script gets the arguments a call
   * made then had: the same command, re-sent later, as Lettuce does after a reconnect.
   */
  /** Admitted, the line having let the visitor in at {@code admittedAt}. */
  static EnqueueResult admittedBy(long admittedAt, boolean added) {
    return new EnqueueResult(true, 0, 0, false, added, 0, CapWait.NONE, admittedAt);
  }

  <T> T resent(long sentAt, Supplier<T> call) {
    long now = clock.millis();
    clock.set(Instant.ofEpochMilli(sentAt));
    try {
      return call.get();
    } finally {
      clock.set(Instant.ofEpochMilli(now));
    }
  }

  static RoomPolicy withRate(double rate, int maxActive, int batch) {
    return new RoomPolicy(
        rate,
        POLICY.admitBurst(),
        maxActive,
        POLICY.sessionDuration(),
        POLICY.abandonAfter(),
        batch,
        POLICY.finishedRetention());
  }

  @Nested
  class Enqueue {

    @Test
    void enqueueWhenLineIsEmptyAndBucketAllowsThenAdmitsAtOnce() {
      EnqueueResult result = enqueue("v1");

      assertThat(result).isEqualTo(admittedBy(clock.millis(), true));
      assertThat(running()).containsExactly("v1");
      assertThat(waiting()).isEmpty();
    }

    @Test
    void enqueueWhenPausedThenWaitsEvenWithTokensAndRoom() {
      RoomPolicy paused =
          io.anteroom.queue.policy.PolicyParser.apply(
              "test", POLICY, java.util.Map.of("mode", "paused"));

      assertThat(enqueue("v1", paused))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, true));
      assertThat(running()).isEmpty();
      assertThat(enqueue("v2"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 2, 2, false, true));
    }

    @Test
    void enqueueWhenBucketIsEmptyThenWaits() {
      drainBucket();

      assertThat(enqueue("v1"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, true));
      assertThat(enqueue("v2"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 2, 2, false, true));
      assertThat(waiting()).containsExactly("v1", "v2");
      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) clock.millis());
    }

    @Test
    void enqueueWhenRunningIsFullThenWaitsEvenWithTokens() {
      RoomPolicy capOfOne = withRate(10, 1, 500);
      assertThat(enqueue("v1", capOfOne).admitted()).isTrue();

      EnqueueResult second = enqueue("v2", capOfOne);

      // v1's session, just begun, has to end first.
      CapWait untilV1Ends = new CapWait(capOfOne.sessionIdleLimit().toMillis(), 0, 1);
      assertThat(second)
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, true, 0, untilV1Ends));
    }

    @Test
    void enqueueWhenLineIsNotEmptyThenJoinsTheBackEvenWithTokens() {
      drainBucket();
      enqueue("v1");
      clock.advance(Duration.ofSeconds(5));

      assertThat(enqueue("v2"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 2, 2, false, true));
    }

    @Test
    void enqueueAgainKeepsThePlaceAndRefreshesSeen() {
      drainBucket();
      enqueue("v1");
      enqueue("v2");
      clock.advance(Duration.ofSeconds(3));

      assertThat(enqueue("v1"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 2, false, false));
      assertThat(waiting()).containsExactly("v1", "v2");
      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) clock.millis());
      assertThat(store.counts(queue).block().enqueued()).isEqualTo(2);
    }

    @Test
    void enqueueOfAnAdmittedVisitorReportsAdmittedAndChangesNothing() {
      enqueue("v1");

      assertThat(enqueue("v1")).isEqualTo(admittedBy(clock.millis(), false));
      assertThat(running()).containsExactly("v1");
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
    }

    @Test
    void enqueueOfAFinishedVisitorJoinsAgainAndSaysSo() {
      drainBucket();
      enqueue("v1");
      store.release(queue, "v1").block();
      clock.advance(Duration.ofMillis(1));

      EnqueueResult again = enqueue("v1");

      assertThat(again)
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, true, true));
      assertThat(finished()).isEmpty();
    }

    @Test
    void enqueueResentAfterTheVisitorLeftDoesNotQueueThemAgain() {
      drainBucket();
      long sentAt = clock.millis();
      enqueue("v1");
      clock.advance(Duration.ofSeconds(1));
      store.release(queue, "v1").block();

      EnqueueResult again = resent(sentAt, () -> enqueue("v1"));

      assertThat(again)
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 0, 0, false, false));
      assertThat(waiting()).isEmpty();
      assertThat(finished()).containsExactly("v1");
    }

    @Test
    void enqueueAtTheInstantTheVisitorLeftCountsAsSentBeforeAndKeepsThemFinished() {
      assertThat(enqueue("v1").admitted()).isTrue();
      store.release(queue, "v1").block();

      assertThat(enqueue("v1"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 0, 0, false, false));
      assertThat(running()).isEmpty();
      assertThat(finished()).containsExactly("v1");
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
    }

    @Test
    void enqueueResentAfterAPollNeverMovesSeenBackwards() {
      drainBucket();
      long sentAt = clock.millis();
      enqueue("v1");
      clock.advance(Duration.ofSeconds(5));
      status("v1");

      assertThat(resent(sentAt, () -> enqueue("v1")))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, false));
      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) clock.millis());
    }
  }

  @Nested
  class Join {

    EnqueueResult join(String visitor) {
      return store.join(queue, visitor, POLICY).block();
    }

    @Test
    void joinWhenLineIsEmptyAndBucketAllowsThenAdmitsAtOnce() {
      assertThat(join("v1")).isEqualTo(admittedBy(clock.millis(), true));
      assertThat(running()).containsExactly("v1");
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
    }

    @Test
    void joinTakesTheBackOfTheLineAtItsLengthPlusOne() {
      drainBucket();
      enqueue("v1");

      assertThat(join("v2"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 2, 2, false, true));
      assertThat(join("v3"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 3, 3, false, true));
      assertThat(waiting()).containsExactly("v1", "v2", "v3");
      assertThat(sync.zscore(keys.seen(queue), "v3")).isEqualTo((double) clock.millis());
      assertThat(store.counts(queue).block().enqueued()).isEqualTo(3);
    }

    @Test
    void joinBehindOnlyThoseSentToTheFrontBeginsTheLineOnce() {
      // Those sent back to the front (reenter.lua) take no sequence number and begin nothing, so
      // the first newcomer behind them, who takes number 1, begins the line; later ones leave it.
      drainBucket();
      sync.zadd(keys.waiting(queue), -1, "sent-back");
      long began = clock.millis();

      assertThat(join("v1").position()).isEqualTo(2);
      clock.advance(Duration.ofSeconds(5));
      assertThat(join("v2").position()).isEqualTo(3);

      assertThat(sync.hget(keys.state(queue), "since")).isEqualTo(Long.toString(began));
      assertThat(waiting()).containsExactly("sent-back", "v1", "v2");
    }

    @Test
    void joinAgainWithTheSameIdKeepsThePlaceAndTheCount() {
      drainBucket();
      join("v1");
      join("v2");
      clock.advance(Duration.ofSeconds(3));

      assertThat(join("v1"))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 2, false, false));
      assertThat(waiting()).containsExactly("v1", "v2");
      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) clock.millis());
      assertThat(store.counts(queue).block().enqueued()).isEqualTo(2);
      assertThat(join("v3").position()).isEqualTo(3);
    }

    @Test
    void joinAgainAfterGoingStraightInChangesNothing() {
      join("v1");

      assertThat(join("v1")).isEqualTo(admittedBy(clock.millis(), false));
      assertThat(running()).containsExactly("v1");
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
      assertThat(Double.parseDouble(sync.hget(keys.state(queue), "tokens"))).isEqualTo(9.0);
    }

    @Test
    void joinResentAfterAdmissionReportsAdmittedAndLeavesTheLineAlone() {
      drainBucket();
      long sentAt = clock.millis();
      join("v1");
      clock.advance(Duration.ofMillis(100));
      assertThat(admit(POLICY).admitted()).isEqualTo(1);

      EnqueueResult again = resent(sentAt, () -> join("v1"));

      assertThat(again).isEqualTo(admittedBy(sentAt + 100, false));
      assertThat(waiting()).isEmpty();
      assertThat(running()).containsExactly("v1");
      assertThat(store.counts(queue).block().enqueued()).isEqualTo(1);
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
    }

    @Test
    void joinResentAfterTheSessionExpiredLeavesTheVisitorFinished() {
      long sentAt = clock.millis();
      assertThat(join("v1").admitted()).isTrue();
      clock.advance(Duration.ofMinutes(2));
      assertThat(store.expire(queue, POLICY).block().expired()).isEqualTo(1);

      EnqueueResult again = resent(sentAt, () -> join("v1"));

      assertThat(again)
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 0, 0, false, false));
      assertThat(running()).isEmpty();
      assertThat(finished()).containsExactly("v1");
      assertThat(store.counts(queue).block().admitted()).isEqualTo(1);
    }

    @Test
    void joinResentAfterReleaseLeavesTheVisitorOutOfLine() {
      drainBucket();
      long sentAt = clock.millis();
      join("v1");
      join("v2");
      clock.advance(Duration.ofSeconds(1));
      store.release(queue, "v1").block();

      EnqueueResult again = resent(sentAt, () -> join("v1"));

      assertThat(again)
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 0, 1, false, false));
      assertThat(waiting()).containsExactly("v2");
      assertThat(finished()).containsExactly("v1");
      assertThat(store.counts(queue).block().enqueued()).isEqualTo(2);
    }

    @Test
    void joinResentAfterAPollNeverMovesSeenBackwards() {
      drainBucket();
      long sentAt = clock.millis();
      join("v1");
      clock.advance(Duration.ofSeconds(5));
      status("v1");

      assertThat(resent(sentAt, () -> join("v1")))
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, false));
      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) clock.millis());
    }

    @Test
    void joinWhenPausedThenWaitsEvenWithTokensAndRoom() {
      RoomPolicy paused =
          io.anteroom.queue.policy.PolicyParser.apply(
              "test", POLICY, java.util.Map.of("mode", "paused"));

      assertThat(store.join(queue, "v1", paused).block())
          .usingRecursiveComparison()
          .ignoringFields("place")
          .isEqualTo(new EnqueueResult(false, 1, 1, false, true));
      assertThat(running()).isEmpty();
    }

    @Test
    void joinReadsTheMeasuredRateAtMostOnceASecondPerQueue() {
      drainBucket();
      sync.hset(
          keys.state(queue),
          java.util.Map.of(
              "rate-sum", "20", "rate-weight", "10000", "rate-at", Long.toString(clock.millis())));
      assertThat(join("v1").measuredRate()).isEqualTo(2.0);

      // A rate changed in Redis meanwhile is not seen within the second: nothing was read.
      sync.hset(keys.state(queue), "rate-sum", "40");
      assertThat(join("v2").measuredRate()).isEqualTo(2.0);
      clock.advance(Duration.ofMillis(MeasuredRates.MAX_AGE_MS + 1));
      assertThat(join("v3").measuredRate())
          .isCloseTo(4.0, org.assertj.core.api.Assertions.within(0.01));
    }

    @Test
    void joinReusesTheRateAWaitingStatusReadLately() {
      drainBucket();
      join("v1");
      sync.hset(
          keys.state(queue),
          java.util.Map.of(
              "rate-sum", "20", "rate-weight", "10000", "rate-at", Long.toString(clock.millis())));
      clock.advance(Duration.ofMillis(MeasuredRates.MAX_AGE_MS + 1));
      double polled = status("v1").measuredRate();

      sync.hset(keys.state(queue), "rate-sum", "40");
      assertThat(join("v2").measuredRate()).isEqualTo(polled);
    }
  }

  @Nested
  class Status {

    @Test
    void statusOfWaitingVisitorGivesPositionAndRefreshesSeen() {
      drainBucket();
      enqueue("v1");
      enqueue("v2");
      clock.advance(Duration.ofSeconds(7));

      assertThat(status("v2")).isEqualTo(new VisitorStatus(State.WAITING, 2, 2, 0));
      assertThat(sync.zscore(keys.seen(queue), "v2")).isEqualTo((double) clock.millis());
    }

    @Test
    void statusNeverMovesSeenBackwards() {
      drainBucket();
      enqueue("v1");
      long joined = clock.millis();
      clock.advance(Duration.ofSeconds(-5));

      status("v1");

      assertThat(sync.zscore(keys.seen(queue), "v1")).isEqualTo((double) joined);
    }

    @Test
    void statusOfAdmittedFinishedAndUnknownVisitors() {
      enqueue("in");
      drainBucket();
      enqueue("gone");
      store.release(queue, "gone").block();

      assertThat(status("in").state()).isEqualTo(State.ADMITTED);
      assertThat(status("gone").state()).isEqualTo(State.FINISHED);
      assertThat(status("stranger")).isEqualTo(new VisitorStatus(State.UNKNOWN, 0, 0, 0));
      assertThat(sync.zcard(keys.seen(queue))).isZero();
    }

    @Test
    void statusOfAnAdmittedVisitorTellsWhenTheyWereAdmitted() {
      drainBucket();
      enqueue("v1");
      clock.advance(Duration.ofSeconds(3));
      long admittedAt = clock.millis();
      admit(POLICY);
      clock.advance(Duration.ofSeconds(2));

      assertThat(status("v1"))
          .isEqualTo(
              new VisitorStatus(
                  State.ADMITTED, 0, 0, admittedAt, 0, CapWait.NONE, false, admittedAt));
    }
  }

  @Nested
  class Admit {

    @Test
    void admitMovesTheHeadOfTheLineInOrderAtTheRate() {
      drainBucket();
      for (int i = 0; i < 20; i++) {
        enqueue("v" + i);
      }
      clock.advance(Duration.ofMillis(500));

      AdmitResult result = admit(POLICY);

      assertThat(result).isEqualTo(new AdmitResult(5, 0, 15, 5));
      assertThat(running()).containsExactlyInAnyOrder("v0", "v1", "v2", "v3", "v4");
      assertThat(waiting()).first().isEqualTo("v5");
      // The admitted keep their seen entries until they are older than abandon-after.
      assertThat(sync.zcard(keys.seen(queue))).isEqualTo(20);
    }

    @Test
    void admitAgainAtTheSameInstantAdmitsNobody() {
      drainBucket();
      for (int i = 0; i < 20; i++) {
        enqueue("v" + i);
      }
      clock.advance(Duration.ofSeconds(1));
      admit(POLICY);

      assertThat(admit(POLICY).admitted()).isZero();
    }

    @Test
    void admitNeverExceedsTheBurstAfterALongPause() {
      drainBucket();
      for (int i = 0; i < 50; i++) {
        enqueue("v" + i);
      }
      clock.advance(Duration.ofMinutes(5));
      for (int i = 0; i < 50; i++) {
        status("v" + i);
      }

      assertThat(admit(POLICY)).isEqualTo(new AdmitResult(10, 0, 40, 10));
    }

    @Test
    void admitWhenRunningIsFullThenKeepsVisitorsWaiting() {
      RoomPolicy capOfThree = withRate(10, 3, 500);
      drainBucket();
      for (int i = 0; i < 10; i++) {
        enqueue("v" + i, capOfThree);
      }
      clock.advance(Duration.ofSeconds(1));

      assertThat(admit(capOfThree)).isEqualTo(new AdmitResult(3, 0, 7, 3));
      clock.advance(Duration.ofSeconds(1));
      assertThat(admit(capOfThree)).isEqualTo(new AdmitResult(0, 0, 7, 3));
    }

    @Test
    void tokensUnusedBecauseOfTheCapAreKeptUpToTheBurst() {
      RoomPolicy capOfThree = withRate(10, 3, 500);
      drainBucket();
      for (int i = 0; i < 10; i++) {
        enqueue("v" + i, capOfThree);
      }
      clock.advance(Duration.ofSeconds(1));
      admit(capOfThree);
      store.release(queue, "v0").block();
      store.release(queue, "v1").block();

      assertThat(admit(capOfThree).admitted()).isEqualTo(2);
    }

    @Test
    void admitRespectsTheBatchLimit() {
      RoomPolicy batchOfTwo = withRate(10, 100, 2);
      drainBucket();
      for (int i = 0; i < 10; i++) {
        enqueue("v" + i, batchOfTwo);
      }
      clock.advance(Duration.ofSeconds(1));

      assertThat(admit(batchOfTwo).admitted()).isEqualTo(2);
      assertThat(admit(batchOfTwo).admitted()).isEqualTo(2);
    }

    @Test
    void admitSkipsAbandonedVisitorsWithoutSpendingTokensOrSlots() {
      drainBucket();
      enqueue("quiet1");
      enqueue("quiet2");
      enqueue("polling1");
      enqueue("polling2");
      clock.advance(Duration.ofSeconds(31));
      status("polling1");
      status("polling2");
      clock.advance(Duration.ofMillis(200));

      AdmitResult result = admit(POLICY);

      assertThat(result).isEqualTo(new AdmitResult(2, 2, 0, 2));
      assertThat(running()).containsExactlyInAnyOrder("polling1", "polling2");
      assertThat(finished()).containsExactlyInAnyOrder("quiet1", "quiet2");
      assertThat(store.counts(queue).block().abandoned()).isEqualTo(2);
      assertThat(Double.parseDouble(sync.hget(keys.state(queue), "tokens"))).isEqualTo(8.0);
    }

    @Test
    void admitWithAnEarlierClockMintsNoExtraTokens() {
      drainBucket();
      for (int i = 0; i < 50; i++) {
        enqueue("v" + i);
      }
      clock.advance(Duration.ofMillis(500));
      assertThat(admit(POLICY).admitted()).isEqualTo(5);

      clock.advance(Duration.ofMillis(-300));
      assertThat(admit(POLICY).admitted()).isZero();
      clock.advance(Duration.ofMillis(300));
      assertThat(admit(POLICY).admitted()).isZero();
      clock.advance(Duration.ofMillis(100));
      assertThat(admit(POLICY).admitted()).isEqualTo(1);
    }

    @Test
    void fractionalRatesAccumulateAcrossCalls() {
      RoomPolicy slow = withRate(0.5, 100, 500);
      drainBucket();
      for (int i = 0; i < 5; i++) {
        enqueue("v" + i, slow);
      }
      clock.advance(Duration.ofSeconds(1));
      assertThat(admit(slow).admitted()).isZero();
      clock.advance(Duration.ofSeconds(1));
      assertThat(admit(slow).admitted()).isEqualTo(1);
    }

    @Test
    void admitFinishesAVisitorMissingFromSeenAsGone() {
      drainBucket();
      enqueue("trimmed");
      enqueue("polling");
      sync.zrem(keys.seen(queue), "trimmed");
      clock.advance(Duration.ofSeconds(1));

      assertThat(admit(POLICY)).isEqualTo(new AdmitResult(1, 1, 0, 1));
      assertThat(running()).containsExactly("polling");
      assertThat(finished()).containsExactly("trimmed");
    }

    @Test
    void admitTrimsUpToOneBatchOfStaleSeenEntries() {
      RoomPolicy batchOfTwo = withRate(10, 100, 2);
      drainBucket();
      for (int i = 0; i < 5; i++) {
        enqueue("old" + i, batchOfTwo);
      }
      clock.advance(Duration.ofSeconds(31));
      enqueue("fresh", batchOfTwo);
      sync.zrem(keys.waiting(queue), "old0", "old1", "old2", "old3", "old4");

      AdmitResult result = admit(batchOfTwo);

      assertThat(result).isEqualTo(new AdmitResult(1, 0, 0, 1));
      assertThat(sync.zrange(keys.seen(queue), 0, -1))
          .containsExactly("old2", "old3", "old4", "fresh");
      admit(batchOfTwo);
      admit(batchOfTwo);
      assertThat(sync.zrange(keys.seen(queue), 0, -1)).containsExactly("fresh");
    }

    @Test
    void admittedVisitorsLeaveSeenOnceOlderThanAbandonAfter() {
      drainBucket();
      enqueue("v1");
      enqueue("v2");
      clock.advance(Duration.ofSeconds(1));
      admit(POLICY);
      assertThat(sync.zcard(keys.seen(queue))).isEqualTo(2);

      clock.advance(Duration.ofSeconds(29));
      admit(POLICY);
      assertThat(sync.zcard(keys.seen(queue))).isEqualTo(2);
      clock.advance(Duration.ofMillis(1));
      admit(POLICY);
      assertThat(sync.exists(keys.seen(queue))).isZero();
      assertThat(running()).containsExactlyInAnyOrder("v1", "v2");
    }

    @Test
    void admitWithTheLargestBatchMovesItWhole() {
      int batch = 5000; // the policy's largest admit-batch
      RoomPolicy large = withRate(batch, batch, batch);
      drainBucket();
      List<ScoredValue<String>> line = new ArrayList<>();
      List<ScoredValue<String>> seen = new ArrayList<>();
      for (int i = 0; i < batch; i++) {
        line.add(ScoredValue.just(i, "v" + i));
        seen.add(ScoredValue.just(clock.millis(), "v" + i));
      }
      sync.zadd(keys.waiting(queue), line.toArray(new ScoredValue[0]));
      sync.zadd(keys.seen(queue), seen.toArray(new ScoredValue[0]));
      clock.advance(Duration.ofSeconds(1));

      assertThat(admit(large)).isEqualTo(new AdmitResult(batch, 0, 0, batch));
    }

    @Test
    void admitOnAnEmptyLineAdmitsNobody() {
      assertThat(admit(POLICY)).isEqualTo(new AdmitResult(0, 0, 0, 0));
    }
  }

  @Nested
  class Expire {

    /** Sessions of a minute, confirmed every 6 s: idle for 66 s, a session ends. */
    @Test
    void idleSessionsExpireAndActiveOnesStay() {
      enqueue("idle");
      enqueue("busy");
      clock.advance(Duration.ofSeconds(50));
      assertThat(store.touch(queue, "busy").block()).isTrue();
      clock.advance(Duration.ofSeconds(16));

      ExpireResult result = store.expire(queue, POLICY).block();

      assertThat(result).isEqualTo(new ExpireResult(1, 0, 0, 1, 1, 2));
      assertThat(running()).containsExactly("busy");
      assertThat(finished()).containsExactly("idle");
      assertThat(store.counts(queue).block().expired()).isEqualTo(1);
    }

    @Test
    void aSessionLastsTheSessionDurationAndOneCheckAfterItsLastActivity() {
      enqueue("v1");
      assertThat(POLICY.sessionIdleLimit()).isEqualTo(Duration.ofSeconds(66));
      clock.advance(Duration.ofSeconds(66).minusMillis(1));
      assertThat(store.expire(queue, POLICY).block().expired()).isZero();

      clock.advance(Duration.ofMillis(1));

      assertThat(store.expire(queue, POLICY).block().expired()).isEqualTo(1);
      assertThat(finished()).containsExactly("v1");
    }

    @Test
    void finishedEntriesAreTrimmedAfterRetention() {
      enqueue("v1");
      store.release(queue, "v1").block();
      clock.advance(Duration.ofMinutes(10).plusMillis(1));

      assertThat(store.expire(queue, POLICY).block()).isEqualTo(new ExpireResult(0, 1, 0, 0, 0, 1));
      assertThat(finished()).isEmpty();
    }

    @Test
    void expireTwiceExpiresOnce() {
      enqueue("v1");
      clock.advance(Duration.ofMinutes(2));
      store.expire(queue, POLICY).block();

      assertThat(store.expire(queue, POLICY).block()).isEqualTo(new ExpireResult(0, 0, 0, 0, 1, 1));
    }
  }

  @Nested
  class Register {

    @Test
    void registerAddsPassHoldersToRunningWithATimeToLive() {
      assertThat(store.register(queue, List.of("p1", "p2"), POLICY).block()).isEqualTo(2);

      assertThat(running()).containsExactlyInAnyOrder("p1", "p2");
      assertThat(sync.pttl(keys.running(queue))).isBetween(1L, 120_000L);
    }

    @Test
    void registerAgainOnlyMovesActivityForward() {
      store.register(queue, List.of("p1"), POLICY).block();
      long first = clock.millis();
      clock.advance(Duration.ofSeconds(-1));

      assertThat(store.register(queue, List.of("p1"), POLICY).block()).isZero();
      assertThat(sync.zscore(keys.running(queue), "p1")).isEqualTo((double) first);
    }

    @Test
    void expiryOfAnActiveQueueKeepsTheRunningSetForGood() {
      store.register(queue, List.of("p1"), POLICY).block();

      store.expire(queue, POLICY).block();

      assertThat(sync.pttl(keys.running(queue))).isEqualTo(-1L);
    }

    @Test
    void registerResentAfterTheSessionEndedLeavesThePassHolderFinished() {
      long sentAt = clock.millis();
      store.register(queue, List.of("p1"), POLICY).block();
      clock.advance(Duration.ofSeconds(1));
      store.release(queue, "p1").block();

      assertThat(resent(sentAt, () -> store.register(queue, List.of("p1"), POLICY).block()))
          .isZero();
      assertThat(running()).isEmpty();
      assertThat(finished()).containsExactly("p1");
    }

    @Test
    void registerOfAPassHolderWhoseEarlierSessionEndedMovesThemBackToRunning() {
      store.register(queue, List.of("p1"), POLICY).block();
      store.release(queue, "p1").block();
      clock.advance(Duration.ofSeconds(1));

      assertThat(store.register(queue, List.of("p1"), POLICY).block()).isEqualTo(1);
      assertThat(running()).containsExactly("p1");
      assertThat(finished()).isEmpty();
    }

    @Test
    void registerLeavesAVisitorInLineWhereTheyAre() {
      drainBucket();
      enqueue("v1");

      assertThat(store.register(queue, List.of("v1", "p1"), POLICY).block()).isEqualTo(1);
      assertThat(waiting()).containsExactly("v1");
      assertThat(running()).containsExactly("p1");
    }

    @Test
    void registerTakesMoreVisitorsAtOnceThanLuaUnpacks() {
      List<String> visitors = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        visitors.add("p" + i);
      }

      assertThat(store.register(queue, visitors, POLICY).block()).isEqualTo(10_000);
      assertThat(sync.zcard(keys.running(queue))).isEqualTo(10_000);
    }

    @Test
    void registerOfNobodySendsNothing() {
      assertThat(store.register(queue, List.of(), POLICY).block()).isZero();
      assertThat(sync.exists(keys.running(queue))).isZero();
    }
  }

  @Nested
  class TouchAndRelease {

    @Test
    void touchOfAVisitorWhoIsNotRunningDoesNothing() {
      assertThat(store.touch(queue, "nobody").block()).isFalse();
      assertThat(running()).isEmpty();
    }

    @Test
    void touchNeverMovesActivityBackwards() {
      enqueue("v1");
      long admittedAt = clock.millis();
      clock.advance(Duration.ofSeconds(-10));

      assertThat(store.touch(queue, "v1").block()).isTrue();
      assertThat(sync.zscore(keys.running(queue), "v1")).isEqualTo((double) admittedAt);
    }

    @Test
    void releaseEndsASessionOnce() {
      enqueue("v1");

      assertThat(store.release(queue, "v1").block()).isTrue();
      assertThat(store.release(queue, "v1").block()).isFalse();
      assertThat(running()).isEmpty();
      assertThat(finished()).containsExactly("v1");
      assertThat(store.counts(queue).block().released()).isEqualTo(1);
    }

    @Test
    void releaseTakesAWaitingVisitorOutOfLine() {
      drainBucket();
      enqueue("v1");
      enqueue("v2");

      assertThat(store.release(queue, "v1").block()).isTrue();
      assertThat(waiting()).containsExactly("v2");
      assertThat(sync.zscore(keys.seen(queue), "v1")).isNull();
      assertThat(status("v2").position()).isEqualTo(1);
    }
  }

  @Test
  void scriptsStillRunAfterTheServerForgetsThem() {
    drainBucket();
    enqueue("v1");
    sync.scriptFlush();

    assertThat(enqueue("v2").position()).isEqualTo(2);
    assertThat(status("v1").position()).isEqualTo(1);
  }

  @Test
  void countsReportSetSizesAndCounters() {
    enqueue("a");
    drainBucket();
    enqueue("b");
    enqueue("c");
    store.release(queue, "c").block();

    assertThat(store.counts(queue).block()).isEqualTo(new QueueCounts(1, 1, 1, 2, 1, 0, 0, 1));
  }

  @Test
  void clearGivesUpEveryPlaceAndCountsIt() {
    drainBucket();
    enqueue("a");
    enqueue("b");

    assertThat(store.clear(queue).block()).isEqualTo(2);
    assertThat(waiting()).isEmpty();
    assertThat(sync.exists(keys.seen(queue))).isZero();
    assertThat(sync.hget(keys.state(queue), "cleared")).isEqualTo("2");
    assertThat(status("a").state()).isEqualTo(State.UNKNOWN);
    assertThat(store.clear(queue).block()).isZero();
    assertThat(enqueue("c").position()).isEqualTo(1);
  }

  @Test
  void sweepFinishesThoseWhoStoppedPollingWhereverTheyStand() {
    drainBucket();
    enqueue("a");
    enqueue("b");
    enqueue("c");
    clock.advance(Duration.ofSeconds(20));
    status("b");
    clock.advance(Duration.ofSeconds(11));

    assertThat(store.sweep(queue, POLICY).block()).isEqualTo(2);
    assertThat(waiting()).containsExactly("b");
    assertThat(finished()).containsExactlyInAnyOrder("a", "c");
    assertThat(store.counts(queue).block().abandoned()).isEqualTo(2);
    assertThat(store.sweep(queue, POLICY).block()).isZero();
  }

  @Test
  void sweepDropsStaleSeenEntriesOfAdmittedVisitorsWithoutCountingThem() {
    drainBucket();
    enqueue("admitted");
    enqueue("waiting");
    clock.advance(Duration.ofSeconds(1));
    admit(withRate(10, 100, 1));
    clock.advance(Duration.ofSeconds(31));

    assertThat(store.sweep(queue, POLICY).block()).isEqualTo(1);
    assertThat(running()).containsExactly("admitted");
    assertThat(finished()).containsExactly("waiting");
    assertThat(sync.exists(keys.seen(queue))).isZero();
    assertThat(store.counts(queue).block().abandoned()).isEqualTo(1);
  }

  @Nested
  class AfterTheStoreCameBackEmpty {

    static final Duration HOLD = Duration.ofSeconds(10);

    RedisActiveQueues active;

    @BeforeEach
    void queueIsOn() {
      active =
          new RedisActiveQueues(
              fixture.connector().commands(), keys, clock, room -> HOLD, List.of());
      active.activate(queue, Activation.MANUAL).block();
      active.read().block();
    }

    /** Restarts redis-server without its data; the next read of the active queues recovers. */
    void storeComesBackEmpty() {
      fixture.restart();
      assertThat(active.read().block().queues()).containsKey(queue);
    }

    EnqueueResult comeBack(String visitor, Instant joinedAt) {
      return store.enqueue(queue, visitor, joinedAt, POLICY).block();
    }

    @Test
    void ticketHoldersRejoinAheadOfNewcomersInTheOrderTheyJoined() {
      drainBucket();
      Instant first = clock.instant();
      enqueue("a");
      clock.advance(Duration.ofSeconds(2));
      Instant second = clock.instant();
      enqueue("b");
      clock.advance(Duration.ofSeconds(2));
      Instant third = clock.instant();
      enqueue("c");
      clock.advance(Duration.ofSeconds(10));

      storeComesBackEmpty();
      enqueue("newcomer");
      EnqueueResult c = comeBack("c", third);
      EnqueueResult a = comeBack("a", first);
      comeBack("b", second);

      assertThat(waiting()).containsExactly("a", "b", "c", "newcomer");
      assertThat(c.position()).isEqualTo(1);
      assertThat(c.added()).isFalse();
      assertThat(a.position()).isEqualTo(1);
      assertThat(status("newcomer").position()).isEqualTo(4);
    }

    @Test
    void whileHeldTheLineAdmitsOnlyThoseWhoRejoinedAndNobodyAtOnce() {
      drainBucket();
      Instant joined = clock.instant();
      enqueue("a");
      clock.advance(Duration.ofSeconds(5));

      storeComesBackEmpty();
      EnqueueResult newcomer = enqueue("newcomer");
      comeBack("a", joined);
      AdmitResult held = admit(POLICY);
      clock.advance(HOLD);
      AdmitResult after = admit(POLICY);

      assertThat(newcomer.admitted()).isFalse();
      assertThat(held.admitted()).isEqualTo(1);
      assertThat(after.admitted()).isEqualTo(1);
      assertThat(running()).containsExactlyInAnyOrder("a", "newcomer");
    }

    @Test
    void aVisitorTheLineLostWhoComesBackBeforeAnyRecoveryGoesToTheBack() {
      // Only a line a recovery began takes tickets from before at the front (rejoin.lua): one who
      // comes back in the moment between the loss and a gateway or worker noticing it (a read a
      // second) finds a line that cannot tell a loss from a clear, and joins at the back.
      drainBucket();
      Instant joined = clock.instant();
      enqueue("a");
      clock.advance(Duration.ofSeconds(5));
      fixture.restart();

      drainBucket();
      enqueue("newcomer");
      comeBack("a", joined);

      assertThat(waiting()).containsExactly("newcomer", "a");
    }

    @Test
    void aWaitingVisitorIsToldTheScoreOfTheirPlaceForTheirTicketAndOthersNone() {
      drainBucket();
      EnqueueResult first = enqueue("a");
      EnqueueResult second = store.join(queue, "b", POLICY).block();
      sync.hset(keys.state(queue), java.util.Map.of("tokens", "1"));
      sync.del(keys.waiting(queue));
      EnqueueResult admitted = enqueue("c");

      assertThat(first.place()).as("the line's first place").isEqualTo(1);
      assertThat(second.place()).isEqualTo(2);
      assertThat(admitted.admitted()).isTrue();
      assertThat(admitted.place()).isNaN();
    }

    @Test
    void aLotteryKeepsItsDrawnOrderThroughTheLossWhateverOrderItsTicketsComeBackIn() {
      RoomPolicy lottery =
          io.anteroom.queue.policy.PolicyParser.apply(
              "test", POLICY, java.util.Map.of("queueing", "random"));
      drainBucket();
      List<String> arrived = new ArrayList<>();
      java.util.Map<String, EnqueueResult> tickets = new java.util.HashMap<>();
      java.util.Map<String, Instant> joined = new java.util.HashMap<>();
      for (int i = 1; i <= 8; i++) {
        String visitor = "e" + i;
        joined.put(visitor, clock.instant());
        tickets.put(visitor, enqueue(visitor, lottery));
        arrived.add(visitor);
        clock.advance(Duration.ofSeconds(1));
      }
      List<String> drawn = waiting();
      assertThat(tickets.values()).allMatch(result -> !Double.isNaN(result.place()));

      storeComesBackEmpty();
      drainBucket();
      enqueue("newcomer");
      java.util.Collections.reverse(arrived);
      for (String visitor : arrived) {
        store
            .enqueue(queue, visitor, joined.get(visitor), tickets.get(visitor).place(), lottery, 1)
            .block();
      }

      List<String> expected = new ArrayList<>(drawn);
      expected.add("newcomer");
      assertThat(waiting()).containsExactlyElementsOf(expected);
    }

    @Test
    void aTicketFromTheSecondTheLineBeganAgainInStillRejoinsAhead() {
      // The loss and the recovery that began the new line fall in the second the ticket names.
      drainBucket();
      Instant joined = clock.instant();
      enqueue("a");
      storeComesBackEmpty();

      drainBucket();
      enqueue("newcomer");
      EnqueueResult back = comeBack("a", joined);

      assertThat(waiting()).containsExactly("a", "newcomer");
      assertThat(back.position()).isEqualTo(1);
    }

    @Test
    void aTicketFromThisLinesOwnTimeGoesToTheBackAsBefore() {
      enqueue("first");
      clock.advance(Duration.ofSeconds(5));
      Instant joined = clock.instant();
      drainBucket();
      enqueue("cleared");
      store.clear(queue).block();
      enqueue("newcomer");

      EnqueueResult back = comeBack("cleared", joined);

      assertThat(waiting()).containsExactly("newcomer", "cleared");
      assertThat(back.added()).isTrue();
    }

    @Test
    void aPassHolderWhoseSessionTheStoreLostRunsAgain() {
      enqueue("holder");
      Instant confirmed = clock.instant();
      clock.advance(Duration.ofSeconds(5));

      storeComesBackEmpty();

      assertThat(store.touch(queue, "holder", confirmed, RoomPolicy.DEFAULTS).block()).isTrue();
      assertThat(running()).containsExactly("holder");
      assertThat(sync.zrange(keys.sessions(queue.room()), 0, -1)).containsExactly("holder");
      assertThat(store.counts(queue).block().running()).isEqualTo(1);
    }

    @Test
    void aSessionThatEndedStaysEnded() {
      enqueue("holder");
      Instant confirmed = clock.instant();
      store.release(queue, "holder").block();
      clock.advance(Duration.ofSeconds(5));

      assertThat(store.touch(queue, "holder", confirmed, RoomPolicy.DEFAULTS).block()).isFalse();
      assertThat(running()).isEmpty();
    }

    @Test
    void aSessionUnknownToTheLineThatBeganBeforeItsConfirmationStaysEnded() {
      enqueue("someone");
      clock.advance(Duration.ofSeconds(5));

      assertThat(store.touch(queue, "stranger", clock.instant(), RoomPolicy.DEFAULTS).block())
          .isFalse();
      assertThat(running()).containsExactly("someone");
    }
  }
}
