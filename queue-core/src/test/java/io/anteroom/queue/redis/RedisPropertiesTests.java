package io.anteroom.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.config.DurationBinding;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RedisPropertiesTests {

  static RedisProperties bind(Map<String, String> values) {
    return DurationBinding.binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("anteroom.redis", RedisProperties.class);
  }

  @Test
  void blankClusterNodesAsTheSharedConfigPassesThemMeanOneServerOrSentinel() {
    RedisProperties redis =
        bind(Map.of("anteroom.redis.uri", "redis://db:6379", "anteroom.redis.cluster-nodes", ""));

    assertThat(redis.clustered()).isFalse();
    assertThat(redis.uri()).isEqualTo("redis://db:6379");
    assertThat(redis.clusterRefresh()).isEqualTo(Duration.ofSeconds(30));
    assertThat(redis.commandTimeout()).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void commaSeparatedClusterNodesSwitchToClusterMode() {
    RedisProperties redis =
        bind(
            Map.of(
                "anteroom.redis.cluster-nodes",
                "node-1:6379, rediss://:secret@node-2.example:6380",
                "anteroom.redis.cluster-refresh",
                "10s"));

    assertThat(redis.clustered()).isTrue();
    assertThat(redis.clusterNodeUris())
        .containsExactly("redis://node-1:6379", "rediss://:secret@node-2.example:6380");
    assertThat(redis.clusterRefresh()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void badClusterSettingsStopStartUpNamingTheProperty() {
    assertThatThrownBy(
            () ->
                RedisProperties.cluster(
                    List.of("node-1"), Duration.ofMillis(500), Duration.ofSeconds(1), 10))
        .hasMessageContaining("anteroom.redis.cluster-nodes")
        .hasMessageContaining("node-1");
    assertThatThrownBy(
            () ->
                RedisProperties.cluster(
                    List.of("http://node-1:6379"),
                    Duration.ofMillis(500),
                    Duration.ofSeconds(1),
                    10))
        .hasMessageContaining("anteroom.redis.cluster-nodes");
    assertThatThrownBy(
            () ->
                new RedisProperties(
                    "redis://x",
                    Duration.ofMillis(500),
                    Duration.ofSeconds(1),
                    10,
                    List.of("node-1:6379"),
                    Duration.ZERO))
        .hasMessageContaining("anteroom.redis.cluster-refresh");
  }

  @Test
  void theShortConstructorMeansOneServerOrSentinel() {
    RedisProperties redis =
        new RedisProperties(
            "redis-sentinel://s:26379#m", Duration.ofMillis(500), Duration.ofSeconds(1), 10);

    assertThat(redis.clustered()).isFalse();
    assertThat(redis.clusterNodes()).isEmpty();
    assertThat(redis.clusterRefresh()).isEqualTo(Duration.ofSeconds(30));
  }
}
