package io.anteroom.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.testing.SystemTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@SystemTest
class RedisSentinelGroupIntegrationTests {

  @Test
  void sentinelsPromoteTheReplicaWhenThePrimaryIsKilled() {
    try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
      RedisServer primary = group.primary();
      assertThat(primary).isSameAs(group.servers().get(0));
      assertThat(group.uri())
          .startsWith("redis-sentinel://127.0.0.1:")
          .endsWith("#" + RedisSentinelGroup.MASTER_NAME);
      assertThat(group.sentinels().get(0).command("INFO", "server"))
          .contains("redis_mode:sentinel");
      primary.command("SET", "k", "v");
      // Replication is asynchronous: the write reaches this replica before the primary dies. Read
      // on the replica itself: WAIT counts any replica's acknowledgement, and a stray replica of
      // an earlier test's server on the same port would count too.
      RedisServer replica = group.servers().get(1);
      Poll.until(
          "the replica has the write",
          Duration.ofSeconds(10),
          () -> "v".equals(replica.command("GET", "k")));

      primary.kill();
      RedisServer promoted = group.awaitFailoverFrom(primary, Duration.ofSeconds(30));

      assertThat(promoted).isSameAs(group.servers().get(1));
      assertThat(promoted.command("GET", "k")).isEqualTo("v");
    }
  }
}
