package io.anteroom.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

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
      // Replication is asynchronous: the write reaches the replica before the primary dies.
      assertThat(primary.command("WAIT", "1", "4000")).isEqualTo("1");

      primary.kill();
      RedisServer promoted = group.awaitFailoverFrom(primary, Duration.ofSeconds(30));

      assertThat(promoted).isSameAs(group.servers().get(1));
      assertThat(promoted.command("GET", "k")).isEqualTo("v");
    }
  }
}
