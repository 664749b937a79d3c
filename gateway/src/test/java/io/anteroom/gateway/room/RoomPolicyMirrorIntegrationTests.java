package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.room.RoomPolicyMirror.LocalFailurePolicy;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A failure policy held on one gateway against the live settings in Redis: in force at once and
 * over what Redis says until it has been written and read back, then Redis rules again.
 */
class RoomPolicyMirrorIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  RedisConnector connector;
  SettingsStore store;
  RoomPolicyMirror mirror;
  FailurePolicySwitch flips;

  @BeforeEach
  void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    store = new RedisSettingsStore(connector.commands(), new QueueKeys("wr"));
    mirror =
        new RoomPolicyMirror(
            new RoomPolicies(Map.of("shop", RoomPolicy.DEFAULTS), store, Clock.systemUTC()),
            Clock.systemUTC());
    flips = new FailurePolicySwitch(mirror, store);
  }

  @AfterEach
  void close() {
    connector.close();
  }

  @Test
  void heldValueRulesOverRedisUntilWrittenAndReadBack() {
    store.put("shop", null, Map.of("failure-policy", "closed")).block();
    store.put("shop", "9", Map.of("failure-policy", "closed")).block();
    mirror.refresh().block();

    LocalFailurePolicy held = mirror.holdLocally("shop", FailurePolicy.OPEN);

    assertThat(policy()).isEqualTo(FailurePolicy.OPEN);
    assertThat(mirror.policy(QueueId.of("shop", "9")).failurePolicy())
        .as("a queue's own override still wins")
        .isEqualTo(FailurePolicy.CLOSED);
    mirror.refresh().block();
    assertThat(policy()).as("not yet in Redis").isEqualTo(FailurePolicy.OPEN);
    assertThat(mirror.unwritten()).containsExactly(held);

    flips.writeHeld().block();
    assertThat(mirror.unwritten()).isEmpty();
    mirror.refresh().block();

    assertThat(mirror.local("shop")).isEmpty();
    assertThat(policy()).isEqualTo(FailurePolicy.OPEN);
    store.put("shop", null, Map.of("failure-policy", "closed")).block();
    mirror.refresh().block();
    assertThat(policy()).as("Redis rules again").isEqualTo(FailurePolicy.CLOSED);
  }

  @Test
  void aLaterFlipIsNotUndoneByTheWriteOfAnEarlierOne() {
    LocalFailurePolicy first = mirror.holdLocally("shop", FailurePolicy.OPEN);
    LocalFailurePolicy second = mirror.holdLocally("shop", FailurePolicy.CLOSED);

    mirror.written(first);
    mirror.refresh().block();

    assertThat(mirror.local("shop")).contains(second);
    assertThat(policy()).isEqualTo(FailurePolicy.CLOSED);
  }

  @Test
  void flipWithRedisUpIsStoredInRedis() {
    assertThat(flips.flip("shop", FailurePolicy.OPEN).block())
        .isEqualTo(FailurePolicySwitch.Stored.REDIS);
    assertThat(store.overrides("shop").block().room()).containsEntry("failure-policy", "open");

    redis.server().kill();
    try {
      assertThat(flips.flip("shop", FailurePolicy.CLOSED).block())
          .isEqualTo(FailurePolicySwitch.Stored.LOCAL);
      assertThat(policy()).isEqualTo(FailurePolicy.CLOSED);
      mirror.refresh().block();
      assertThat(policy()).as("kept while Redis cannot be read").isEqualTo(FailurePolicy.CLOSED);
    } finally {
      redis.server().restart();
    }
  }

  private FailurePolicy policy() {
    return mirror.policy("shop").failurePolicy();
  }
}
