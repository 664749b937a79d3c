package io.anteroom.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.testing.SystemTest;
import org.junit.jupiter.api.Test;

@SystemTest
class RedisClusterIntegrationTests {

  @Test
  void startFormsThreePrimariesWithOneReplicaEachAndFailoverSwapsRoles() {
    try (RedisCluster cluster = RedisCluster.start()) {
      assertThat(cluster.nodes()).hasSize(6).allSatisfy(n -> assertThat(n.isRunning()).isTrue());
      assertThat(cluster.nodes().get(0).command("CLUSTER", "INFO"))
          .contains("cluster_state:ok", "cluster_slots_assigned:16384", "cluster_known_nodes:6");

      String key = "wr:{shop:42}:waiting";
      RedisServer primary = cluster.primaryOf(key);
      RedisServer replica = cluster.replicaOf(primary);
      assertThat(primary.command("SET", key, "1")).isEqualTo("OK");
      assertThatThrownBy(() -> replica.command("SET", key, "2")).hasMessageStartingWith("MOVED");
      assertThat(cluster.seeds()).contains("127.0.0.1:" + primary.port());

      cluster.failover(replica);

      assertThat(cluster.primaryOf(key)).isSameAs(replica);
      assertThat(cluster.replicaOf(replica)).isSameAs(primary);
      assertThat(replica.command("GET", key)).isEqualTo("1");
    }
  }
}
