package io.anteroom.gateway.arrival;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.arrival.RecordedArrival;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A gateway's recorder of arrivals against a real Redis, on a clock moved by hand: what it keeps in
 * memory, what one flush writes, and what it drops and counts.
 */
class ArrivalRecorderIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final RoomPolicy everyone = policy("1");
  RedisConnector connector;
  RedisArrivals store;

  static RoomPolicy policy(String share) {
    return PolicyParser.apply("shop", RoomPolicy.DEFAULTS, Map.of("record-arrivals", share));
  }

  @BeforeEach
  void connect() {
    redis.server().flushAll();
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    store = new RedisArrivals(connector.commands(), keys, clock);
  }

  @AfterEach
  void close() {
    connector.close();
  }

  ArrivalRecorder recorder(int capacity) {
    return new ArrivalRecorder(Set.of("shop"), store, meters, clock, capacity);
  }

  List<RecordedArrival> recorded() {
    return store.page("shop", 0, null, null, 100_000).block().arrivals();
  }

  double counted(String outcome) {
    return meters.counter("anteroom.gateway.arrivals", "room", "shop", "outcome", outcome).count();
  }

  @Test
  void recordAtOneThenFlushWritesEveryNewcomerOnceWithItsItemTimeAndShare() {
    ArrivalRecorder recorder = recorder(100);
    long t = clock.millis();
    recorder.record(QueueId.of("shop", "42"), everyone);
    clock.advance(Duration.ofMillis(27));
    recorder.record(QueueId.roomWide("shop"), everyone);
    clock.advance(Duration.ofMillis(3));
    recorder.record(QueueId.of("shop", "42"), everyone);

    assertThat(recorded()).as("nothing before the flush").isEmpty();
    recorder.flush().block();
    recorder.flush().block();

    assertThat(recorded())
        .extracting(RecordedArrival::at, RecordedArrival::item, RecordedArrival::sample)
        .containsExactly(tuple(t, "42", 1.0), tuple(t + 27, "_", 1.0), tuple(t + 30, "42", 1.0));
    assertThat(counted("recorded")).isEqualTo(3);
    assertThat(counted("dropped")).isZero();
  }

  @Test
  void recordAtZeroRecordsNothing() {
    ArrivalRecorder recorder = recorder(100);
    for (int i = 0; i < 1000; i++) {
      recorder.record(QueueId.of("shop", "1"), RoomPolicy.DEFAULTS);
    }
    recorder.flush().block();

    assertThat(recorded()).isEmpty();
    assertThat(redis.server().command("EXISTS", keys.arrivals("shop"))).isEqualTo("0");
    assertThat(counted("recorded")).isZero();
  }

  @Test
  void recordAtAShareRecordsAboutThatShare() {
    ArrivalRecorder recorder = recorder(10_000);
    for (int i = 0; i < 4000; i++) {
      recorder.record(QueueId.of("shop", "1"), policy("0.25"));
    }
    recorder.flush().block();

    // 1000 expected; the bounds are more than six standard deviations (27) away.
    assertThat(recorded()).hasSizeBetween(830, 1170).allMatch(a -> a.sample() == 0.25);
  }

  @Test
  void recordBeyondTheBufferDropsAndCountsTheRest() {
    ArrivalRecorder recorder = recorder(3);
    for (int i = 0; i < 5; i++) {
      recorder.record(QueueId.of("shop", Integer.toString(i)), everyone);
    }
    recorder.flush().block();

    assertThat(recorded()).extracting(RecordedArrival::item).containsExactly("0", "1", "2");
    assertThat(counted("recorded")).isEqualTo(3);
    assertThat(counted("dropped")).isEqualTo(2);
  }

  @Test
  void recordOfARoomNotConfiguredIsIgnored() {
    ArrivalRecorder recorder = recorder(100);
    recorder.record(QueueId.of("other", "1"), everyone);
    recorder.flush().block();

    assertThat(redis.server().command("EXISTS", keys.arrivals("other"))).isEqualTo("0");
  }

  @Test
  void flushWhenRedisDoesNotAnswerThenEndsWithinTheTimeoutAndCountsTheArrivalsDropped() {
    ArrivalRecorder recorder = recorder(100);
    recorder.record(QueueId.of("shop", "1"), everyone);
    recorder.record(QueueId.of("shop", "2"), everyone);
    redis.server().pause();
    try {
      long started = System.nanoTime();
      recorder.flush().block(Duration.ofSeconds(5));
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    } finally {
      redis.server().resume();
    }
    recorder.flush().block();

    assertThat(counted("dropped")).isEqualTo(2);
    // The paused server may run the call once it resumes; the gateway never sends it again.
    assertThat(recorded())
        .as("each arrival at most once")
        .extracting(RecordedArrival::item)
        .doesNotHaveDuplicates();
  }

  @Test
  void flushWhenAnArrivalWaitedLongerThanTheLatestDelayThenCountsItDropped() {
    ArrivalRecorder recorder = recorder(100);
    recorder.record(QueueId.of("shop", "1"), everyone);
    clock.advance(RedisArrivals.LATEST.plusMillis(1));
    recorder.record(QueueId.of("shop", "2"), everyone);
    recorder.flush().block();

    assertThat(recorded()).extracting(RecordedArrival::item).containsExactly("2");
    assertThat(counted("dropped")).isEqualTo(1);
  }
}
