package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Before a queue's rate is measured, a wait is estimated from its share of the room's rate: 600 new
 * users a minute (10 a second) over two queues that are on, weighted 1 and 3, is 2.5 and 7.5 a
 * second, however fast each queue's own admit-per-second (10) would go. No worker runs, so no rate
 * is measured.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.new-users-per-minute=600",
      "anteroom.rooms.shop.admit-per-second=10"
    })
class RoomSharesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId LIGHT = QueueId.of("shop", "1");
  static final QueueId HEAVY = QueueId.of("shop", "2");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policies;
  @Autowired RoomShares shares;

  @BeforeEach
  void twoQueuesOn() {
    settings.put("shop", HEAVY.item(), Map.of("weight", "3")).block();
    active.activate(LIGHT, Activation.MANUAL).block();
    active.activate(HEAVY, Activation.MANUAL).block();
    policies.refresh().block();
    mirror.refresh().block();
  }

  @Test
  void configuredRateIsTheQueuesWeightedShareOfTheRoomsRateAmongTheQueuesThatAreOn() {
    assertThat(shares.configuredRate(LIGHT, policies.policy(LIGHT))).isEqualTo(2.5);
    assertThat(shares.configuredRate(HEAVY, policies.policy(HEAVY))).isEqualTo(7.5);
    // A queue not on yet counts itself in: 10 · 1 / (1 + 1 + 3).
    QueueId third = QueueId.of("shop", "3");
    assertThat(shares.configuredRate(third, policies.policy(third))).isEqualTo(2.0);
  }

  @Test
  void theWaitingPageOfTheTenthInTheLightLineEstimatesFromTheQueuesShare() {
    String body = null;
    for (int i = 0; i < 10; i++) {
      body = new Visitor(port).json("/products/1").body();
    }

    assertThat(Visitor.field(body, "position")).isEqualTo(10);
    // 10 at 2.5 a second: 4 s, told as 0.8 to 2 times that.
    assertThat(Visitor.field(body, "etaMinSeconds")).isEqualTo(3);
    assertThat(Visitor.field(body, "etaMaxSeconds")).isEqualTo(8);
  }
}
