package io.anteroom.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterModeTests {

  @Test
  void clusterOptionsKeepTheHotPathHardeningAndRefreshTheSlotMap() {
    RedisProperties properties =
        new RedisProperties(
            "redis://unused:6379",
            Duration.ofMillis(250),
            Duration.ofSeconds(2),
            123,
            List.of("n1:7000", "n2:7001"),
            Duration.ofSeconds(10));

    ClusterClientOptions options = ClusterMode.options(properties);

    assertThat(options.isAutoReconnect()).isTrue();
    assertThat(options.getDisconnectedBehavior())
        .isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
    assertThat(options.getRequestQueueSize()).isEqualTo(123);
    assertThat(options.getTimeoutOptions().isTimeoutCommands()).isTrue();
    assertThat(options.getSocketOptions().isKeepAlive()).isTrue();
    assertThat(options.getSocketOptions().getConnectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.getTopologyRefreshOptions().isPeriodicRefreshEnabled()).isTrue();
    assertThat(options.getTopologyRefreshOptions().getRefreshPeriod())
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(options.getTopologyRefreshOptions().getAdaptiveRefreshTriggers())
        .containsExactlyInAnyOrder(RefreshTrigger.values());
  }
}
