package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.ScoredValue;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Each expiry call does bounded work (a thousand sessions ended, a thousand old finished entries
 * trimmed), and one worker tick calls again while a call did all it may: what ages faster than one
 * call a tick removes does not pile up. 2,500 of each, one tick, on a clock moved by hand.
 */
class ExpiryIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final int AGED = 2500;

  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of("session-duration", "1m", "finished-retention", "10m"));

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId drop = QueueId.of("drop", "sneaker");
  final MutableClock clock = MutableClock.startingAt2026();
  LinesOnRedis lines;

  @BeforeEach
  void start() {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    lines.on(List.of(drop));
  }

  @AfterEach
  void tearDown() {
    lines.close();
  }

  @SuppressWarnings("unchecked")
  void aged(String key, long score, String prefix) {
    lines.sync.zadd(
        key,
        IntStream.range(0, AGED)
            .mapToObj(i -> ScoredValue.just(score, prefix + i))
            .toArray(ScoredValue[]::new));
  }

  @Test
  void oneTickEndsEveryIdleSessionAndTrimsEveryOldFinishedEntry() {
    long now = clock.millis();
    aged(keys.running(drop), now - POLICY.sessionIdleLimit().toMillis() - 1000, "idle-");
    aged(keys.finished(drop), now - POLICY.finishedRetention().toMillis() - 1000, "old-");

    lines.worker("drop", POLICY, "250ms").loop.runOnce().block();

    assertThat(lines.sync.zcard(keys.running(drop))).isZero();
    assertThat(lines.sync.zrange(keys.finished(drop), 0, -1))
        .hasSize(AGED)
        .allMatch(member -> member.startsWith("idle-"));
  }
}
