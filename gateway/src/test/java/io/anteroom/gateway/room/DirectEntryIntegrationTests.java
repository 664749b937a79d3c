package io.anteroom.gateway.room;

import static io.anteroom.gateway.room.RoomLimitsIntegrationTests.passed;
import static io.anteroom.gateway.room.RoomLimitsIntegrationTests.waits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * In a room with limits, a newcomer on an item whose queue is off is counted in Redis before the
 * pass is given: with no worker running, nobody has marked the room full, yet the gateway lets in
 * no more than total active users, and the next newcomer waits in a line that turns on.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.total-active-users=3",
      "anteroom.rooms.shop.max-active=3",
      "anteroom.rooms.shop.session-duration=1m"
    })
class DirectEntryIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired QueueKeys keys;

  @Test
  void aRoomAtItsLimitsThatNoWorkerMarkedFullLetsTheNextNewcomerWait() {
    for (int i = 0; i < 3; i++) {
      assertThat(passed(new Visitor(port).json("/products/7"))).as("newcomer %d", i).isTrue();
    }
    assertThat(active.read().block().fullRooms()).as("no worker marked it").doesNotContain("shop");

    Visitor fourth = new Visitor(port);
    HttpResponse<String> first = fourth.json("/products/8");
    assertThat(waits(first)).as("the fourth newcomer waits: %s", first.body()).isTrue();
    HttpResponse<String> again = fourth.json("/products/8");
    assertThat(waits(again)).as("and asking again does not get them in").isTrue();
    HttpResponse<String> fifth = new Visitor(port).json("/products/7");
    assertThat(waits(fifth)).as("nor a newcomer on the first item: %s", fifth.body()).isTrue();

    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> direct = client.connect()) {
      assertThat(direct.sync().zcard(keys.sessions("shop"))).isEqualTo(3);
      assertThat(direct.sync().zcard(keys.waiting(QueueId.of("shop", "8")))).isEqualTo(1);
    } finally {
      client.shutdown();
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> active.read().block().queues().containsKey(QueueId.of("shop", "8")));
  }
}
