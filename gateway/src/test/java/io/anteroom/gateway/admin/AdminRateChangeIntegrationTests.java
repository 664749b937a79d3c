package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import reactor.core.publisher.Flux;

/**
 * An operator raises a room's rate through the admin API while a long line is being admitted, and
 * the admission worker follows from its next tick. Rates are measured from the admission times the
 * worker's script writes (running scores), over windows of several seconds, so a slow tick on a
 * busy machine moves the result by a few percent at most.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + AdminRateChangeIntegrationTests.TOKEN,
      "anteroom.rooms.shop.admit-per-second=" + AdminRateChangeIntegrationTests.OLD_RATE,
      "anteroom.rooms.shop.max-active=100000"
    })
class AdminRateChangeIntegrationTests {

  static final String TOKEN = "rate-test-token-0123456789abcdef";
  static final int OLD_RATE = 4;
  static final int NEW_RATE = 80;
  static final int LINE = 2000;
  static final Duration TICK = Duration.ofMillis(250);
  static final Duration WINDOW = Duration.ofSeconds(5);

  /** Time for the worker's first ticks, which spend the bucket the line-up left, to pass. */
  static final Duration SETTLE = Duration.ofSeconds(1);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired QueueStore store;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired DeferredRedisConnector connector;
  @Autowired QueueKeys keys;

  final QueueId queue = QueueId.of("shop", "rate");
  final Clock clock = Clock.systemUTC();

  @Test
  void aRateChangeThroughTheApiChangesTheMeasuredAdmissionRateFromTheNextTick() {
    RoomPolicy policy = policies.configured("shop");
    assertThat(policy.admitPerSecond()).isEqualTo(OLD_RATE);
    active.activate(queue, Activation.MANUAL).block();
    Flux.range(0, LINE)
        .concatMap(i -> store.enqueue(queue, VisitorIds.newVisitorId(), policy))
        .blockLast();
    assertThat(store.counts(queue).block().waiting()).isGreaterThan(LINE - 10);

    try (WorkerFixture worker =
        WorkerFixture.running(redis.uri(), keys, policies, TICK.toMillis() + "ms")) {
      long started = clock.millis();
      awaitAdmissionAtOrAfter(started + SETTLE.plus(WINDOW).toMillis());

      long before = clock.millis();
      AdminClient admin = new AdminClient(managementPort, TOKEN);
      assertThat(
              admin
                  .patch(
                      "/admin/api/rooms/shop/settings", "{\"admit-per-second\": " + NEW_RATE + "}")
                  .statusCode())
          .isEqualTo(200);
      long after = clock.millis();
      long from = after + TICK.toMillis();
      awaitAdmissionAtOrAfter(from + WINDOW.plus(TICK).toMillis());

      assertThat(rate(before - WINDOW.toMillis(), before))
          .as("admissions per second in the %s before the change", WINDOW)
          .isCloseTo(OLD_RATE, withinPercentage(15));
      assertThat(rate(from, from + WINDOW.toMillis()))
          .as("admissions per second in the %s from one tick after the change", WINDOW)
          .isCloseTo(NEW_RATE, withinPercentage(15));
    }
  }

  /** Admissions per second with an admission time in [from, to), read from Redis. */
  private double rate(long from, long to) {
    long admitted =
        connector
            .commands()
            .zcount(
                keys.running(queue),
                Range.from(Range.Boundary.including(from), Range.Boundary.excluding(to)))
            .toCompletableFuture()
            .join();
    return admitted * 1000.0 / (to - from);
  }

  /** Waits until the worker has admitted someone at or after {@code time} (epoch ms). */
  private void awaitAdmissionAtOrAfter(long time) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> latestAdmission() >= time);
  }

  private double latestAdmission() {
    List<ScoredValue<String>> last =
        connector
            .commands()
            .zrangeWithScores(keys.running(queue), -1, -1)
            .toCompletableFuture()
            .join();
    return last.isEmpty() ? 0 : last.get(0).getScore();
  }
}
