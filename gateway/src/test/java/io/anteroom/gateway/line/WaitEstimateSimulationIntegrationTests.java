package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.queue.Activation;
import io.anteroom.queue.EnqueueResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The estimate a visitor is shown on joining, against the wait they really had: visitors join at a
 * steady 15 per second a line that two real admission loops move at 10 per second, on a real Redis.
 * The estimate's midpoint must come within 20 % of the real wait for everyone who joined after the
 * first 10 s. The gateway's policy says 20 per second on purpose: an estimate from the configured
 * rate instead of the measured one would be off by about a third.
 */
@SystemTest
class WaitEstimateSimulationIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final double ARRIVALS_PER_SECOND = 15;
  static final long ARRIVALS_MS = 40_000;
  static final long WARM_UP_MS = 10_000;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("sim", "drop");

  /** What one visitor was told on joining, and when. */
  record Entry(
      String visitor, long joinedAt, long position, double measuredRate, long etaSeconds) {}

  @Test
  void theEstimateAtEntryMatchesTheRealWaitWithinTwentyPercent() {
    // The workers admit at 10 per second; a bucket of 1 s keeps that rate through late ticks.
    RoomPolicy configured =
        PolicyParser.apply(
            "sim",
            RoomPolicy.DEFAULTS,
            Map.of(
                "admit-per-second", "10",
                "admit-burst", "1s",
                "max-active", "1000000",
                "session-duration", "1h",
                "abandon-after", "10m"));
    List<Entry> entries = new ArrayList<>();
    Map<String, Long> admittedAt;
    try (RedisConnector redisConnector =
            RedisConnector.connect(
                new RedisProperties(
                    redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 100_000));
        WorkerFixture first = worker(redisConnector, configured);
        WorkerFixture second = worker(redisConnector, configured)) {
      RedisQueueStore store =
          new RedisQueueStore(redisConnector.commands(), keys, Clock.systemUTC());
      new RedisActiveQueues(redisConnector.commands(), keys)
          .activate(queue, Activation.MANUAL)
          .block();
      // The gateway's view of the policy says 20 per second: the measured rate must win.
      RoomPolicy shown = PolicyParser.apply("sim", configured, Map.of("admit-per-second", "20"));

      long start = System.currentTimeMillis();
      long gapNanos = (long) (1e9 / ARRIVALS_PER_SECOND);
      long next = System.nanoTime();
      for (int i = 0; System.currentTimeMillis() - start < ARRIVALS_MS; i++) {
        LockSupport.parkNanos(next - System.nanoTime());
        next += gapNanos;
        String visitor = "visitor-" + i;
        long joinedAt = System.currentTimeMillis();
        EnqueueResult result = store.enqueue(queue, visitor, configured).block();
        if (result.admitted()) {
          continue;
        }
        WaitingView view =
            WaitingView.of(
                Line.Outcome.waiting(
                    visitor, result.position(), result.waiting(), 0, result.measuredRate()),
                shown,
                shown.admitPerSecond());
        entries.add(
            new Entry(
                visitor, joinedAt, result.position(), result.measuredRate(), view.etaSeconds()));
      }

      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> redisConnector.commands().zcard(keys.waiting(queue)).get() == 0);
      admittedAt = new HashMap<>();
      for (Entry entry : entries) {
        Double score = redisConnector.commands().zscore(keys.running(queue), entry.visitor()).get();
        assertThat(score).as(entry.visitor() + " admitted").isNotNull();
        admittedAt.put(entry.visitor(), score.longValue());
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }

    long start = entries.get(0).joinedAt();
    List<Double> errors = new ArrayList<>();
    for (Entry entry : entries) {
      if (entry.joinedAt() - start < WARM_UP_MS) {
        continue;
      }
      double real = (admittedAt.get(entry.visitor()) - entry.joinedAt()) / 1000.0;
      errors.add((entry.etaSeconds() - real) / real);
    }
    List<Double> sorted = errors.stream().map(Math::abs).sorted().toList();
    double median = sorted.get(sorted.size() / 2);
    double p90 = sorted.get((int) (sorted.size() * 0.9));
    double max = sorted.get(sorted.size() - 1);
    double bias = errors.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    Entry last = entries.get(entries.size() - 1);
    Entry worst = null;
    for (Entry entry : entries) {
      double real = (admittedAt.get(entry.visitor()) - entry.joinedAt()) / 1000.0;
      if (entry.joinedAt() - start >= WARM_UP_MS
          && Math.abs((entry.etaSeconds() - real) / real) >= max) {
        worst = entry;
      }
    }
    System.out.printf(
        "wait estimate vs real wait, %d visitors after the first %d s: |error| median %.1f %%,"
            + " p90 %.1f %%, max %.1f %%, mean signed %.1f %%; last visitor: place %d, measured"
            + " %.2f/s, estimate %d s, real %.1f s; worst: joined at %.1f s, place %d, estimate"
            + " %d s, real %.1f s%n",
        errors.size(),
        WARM_UP_MS / 1000,
        median * 100,
        p90 * 100,
        max * 100,
        bias * 100,
        last.position(),
        last.measuredRate(),
        last.etaSeconds(),
        (admittedAt.get(last.visitor()) - last.joinedAt()) / 1000.0,
        (worst.joinedAt() - start) / 1000.0,
        worst.position(),
        worst.etaSeconds(),
        (admittedAt.get(worst.visitor()) - worst.joinedAt()) / 1000.0);

    assertThat(errors).hasSizeGreaterThan(300);
    assertThat(max).as("worst relative error of the estimate").isLessThanOrEqualTo(0.2);
  }

  /** A worker process of its own; {@code settings} only reads the (absent) live overrides. */
  WorkerFixture worker(RedisConnector settings, RoomPolicy policy) {
    RoomPolicies policies =
        new RoomPolicies(
            Map.of("sim", policy),
            new RedisSettingsStore(settings.commands(), keys),
            Clock.systemUTC());
    return WorkerFixture.running(redis.uri(), keys, policies, "250ms");
  }
}
