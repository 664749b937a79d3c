package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.EnqueueResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.VisitorStatus;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The estimate while the cap on running sessions binds, against when visitors really get in: on a
 * real Redis and a clock moved by hand, each run fills a queue's running sessions to its cap (last
 * activity spread over one session), puts 8 visitors in line, and runs the worker's calls (admit,
 * then expire) every 250 ms from a random phase while every session idles out. Each visitor's
 * estimate on joining, and again at a random moment while waiting, must hold the moment of their
 * admission in at least 90 % of runs, for every place; and the front of the line is never told it
 * gets in before the earliest running session can end.
 */
@SystemTest
class CapWaitEstimateSimulationIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final int RUNS = 60;
  static final int LINE = 8;
  static final long TICK_MS = 250;

  static RedisConnector connector;

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();

  /** An estimate a visitor was given at {@code at}, and when they really got in. */
  record Told(int position, long at, WaitEstimate estimate) {
    boolean holds(long admittedAt) {
      double waited = (admittedAt - at) / 1000.0;
      return waited >= estimate.minSeconds() && waited <= estimate.maxSeconds();
    }
  }

  @BeforeAll
  static void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 10_000));
  }

  @AfterAll
  static void disconnect() {
    connector.close();
  }

  /** One visitor of a run: what they were told on joining and while waiting, and when admitted. */
  record Outcome(Told onJoining, Told whileWaiting, long admittedAt) {}

  @Test
  void withTheCapBindingTheRangeHoldsTheAdmissionOfNineInTenAtEveryPlace() {
    Random random = new Random(20261203);
    int[] onJoining = new int[LINE + 1];
    int[] whileWaiting = new int[LINE + 1];
    List<String> misses = new ArrayList<>();
    for (int run = 0; run < RUNS; run++) {
      RoomPolicy policy = policy(random);
      for (Outcome outcome : simulate(QueueId.of("cap", "run-" + run), policy, random)) {
        if (outcome.onJoining().holds(outcome.admittedAt())) {
          onJoining[outcome.onJoining().position()]++;
        } else {
          misses.add(describe(run, policy, outcome.onJoining(), outcome.admittedAt()));
        }
        if (outcome.whileWaiting().holds(outcome.admittedAt())) {
          whileWaiting[outcome.onJoining().position()]++;
        } else {
          misses.add(describe(run, policy, outcome.whileWaiting(), outcome.admittedAt()));
        }
      }
    }
    System.out.printf(
        "cap-bound estimates holding the admission, %d runs, places 1-%d: on joining %s, while"
            + " waiting %s; misses: %s%n",
        RUNS,
        LINE,
        Arrays.toString(Arrays.copyOfRange(onJoining, 1, LINE + 1)),
        Arrays.toString(Arrays.copyOfRange(whileWaiting, 1, LINE + 1)),
        misses);
    for (int position = 1; position <= LINE; position++) {
      assertThat(onJoining[position])
          .as("runs whose estimate on joining held place %d's admission", position)
          .isGreaterThanOrEqualTo((int) Math.ceil(RUNS * 0.9));
      assertThat(whileWaiting[position])
          .as("runs whose estimate while waiting held place %d's admission", position)
          .isGreaterThanOrEqualTo((int) Math.ceil(RUNS * 0.9));
    }
  }

  /** A rate of 0.5 to 2 per second, a cap of 1 to 5 and sessions of 10 to 40 s. */
  static RoomPolicy policy(Random random) {
    String[] rates = {"0.5", "1", "2"};
    return PolicyParser.apply(
        "cap",
        RoomPolicy.DEFAULTS,
        Map.of(
            "admit-per-second",
            rates[random.nextInt(rates.length)],
            "max-active",
            Integer.toString(1 + random.nextInt(5)),
            "session-duration",
            (10 + random.nextInt(31)) + "s",
            "abandon-after",
            "1h"));
  }

  /** One run: each visitor in line, by place. */
  List<Outcome> simulate(QueueId queue, RoomPolicy policy, Random random) {
    RedisClusterAsyncCommands<String, String> commands = connector.commands();
    RedisQueueStore store = new RedisQueueStore(commands, keys, clock);
    long idleLimit = policy.sessionIdleLimit().toMillis();
    long start = clock.millis();
    long earliestEnd = Long.MAX_VALUE;
    for (int i = 0; i < policy.maxActive(); i++) {
      long activity = start - (long) (random.nextDouble() * idleLimit);
      earliestEnd = Math.min(earliestEnd, activity + idleLimit);
      join(commands.zadd(keys.running(queue), activity, "running-" + i));
    }
    // The bucket is anything from empty to full.
    double tokens = random.nextDouble() * policy.burstTokens();
    join(commands.hset(keys.state(queue), "tokens", Double.toString(tokens)));
    join(commands.hset(keys.state(queue), "refill", Long.toString(start)));

    Told[] onJoining = new Told[LINE + 1];
    Told[] whileWaiting = new Told[LINE + 1];
    long[] askAt = new long[LINE + 1];
    long[] admittedAt = new long[LINE + 1];
    for (int position = 1; position <= LINE; position++) {
      EnqueueResult joined = store.enqueue(queue, visitor(position), policy).block();
      assertThat(joined.position()).isEqualTo(position);
      assertThat(joined.capWait().binds()).as("the cap binds").isTrue();
      WaitEstimate estimate =
          WaitEstimate.of(
              position, joined.measuredRate(), policy.admitPerSecond(), joined.capWait(), policy);
      if (position == 1) {
        assertThat(estimate.minSeconds())
            .as("the front of the line is not told less than the earliest session's time left")
            .isGreaterThanOrEqualTo(Math.max(1, (earliestEnd - start) / 1000));
      }
      onJoining[position] = new Told(position, start, estimate);
      askAt[position] = start + (long) (random.nextDouble() * 2 * idleLimit);
    }

    int admitted = 0;
    long tick = start + (long) (random.nextDouble() * TICK_MS);
    while (admitted < LINE) {
      assertThat(tick - start).as("everyone admitted within the run").isLessThan(30 * idleLimit);
      for (int position = 1; position <= LINE; position++) {
        if (whileWaiting[position] == null
            && admittedAt[position] == 0
            && askAt[position] <= tick) {
          clock.set(Instant.ofEpochMilli(askAt[position]));
          VisitorStatus status = store.status(queue, visitor(position), policy).block();
          assertThat(status.state()).isEqualTo(VisitorStatus.State.WAITING);
          whileWaiting[position] =
              new Told(
                  position,
                  askAt[position],
                  WaitEstimate.of(
                      status.position(),
                      status.measuredRate(),
                      policy.admitPerSecond(),
                      status.capWait(),
                      policy));
        }
      }
      clock.set(Instant.ofEpochMilli(tick));
      store.admit(queue, policy).block();
      store.expire(queue, policy).block();
      for (int position = 1; position <= LINE; position++) {
        if (admittedAt[position] == 0) {
          Double score = join(commands.zscore(keys.running(queue), visitor(position)));
          if (score != null) {
            admittedAt[position] = score.longValue();
            admitted++;
          }
        }
      }
      tick += TICK_MS;
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (int position = 1; position <= LINE; position++) {
      // Admitted before being asked again: the estimate on joining was the last one given.
      Told last = whileWaiting[position] != null ? whileWaiting[position] : onJoining[position];
      outcomes.add(new Outcome(onJoining[position], last, admittedAt[position]));
    }
    clock.set(Instant.ofEpochMilli(tick));
    return outcomes;
  }

  static String visitor(int position) {
    return "visitor-" + position;
  }

  static String describe(int run, RoomPolicy policy, Told told, long admittedAt) {
    return String.format(
        "run %d (%.1f/s, cap %d, session %ds): place %d told %d-%d s, in after %.1f s",
        run,
        policy.admitPerSecond(),
        policy.maxActive(),
        policy.sessionDuration().toSeconds(),
        told.position(),
        told.estimate().minSeconds(),
        told.estimate().maxSeconds(),
        (admittedAt - told.at()) / 1000.0);
  }

  static <T> T join(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }
}
