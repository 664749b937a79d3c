package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A room's total active users counts every session on its items, queues on or off: once the shop
 * holds three, newcomers on any product wait, also on products whose queues were off, and they go
 * in once sessions end and the room has room again.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.total-active-users=3",
      "anteroom.rooms.shop.max-active=3",
      "anteroom.rooms.shop.admit-per-second=10",
      "anteroom.rooms.shop.session-duration=15s",
      "anteroom.rooms.shop.cool-down=1s"
    })
class RoomLimitsIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired QueueKeys keys;
  @Autowired RoomPolicies policies;

  static boolean passed(HttpResponse<String> response) {
    return response.statusCode() == 200 && response.body().contains("Product page");
  }

  static boolean waits(HttpResponse<String> response) {
    return "waiting".equals(Visitor.text(response.body(), "state"));
  }

  @Test
  void newcomersOnEveryItemWaitWhileTheRoomIsFullAndPassOnceItHasRoom() {
    RedisClient client = RedisClient.create(redis.uri());
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    AtomicLong highest = new AtomicLong();
    try (StatefulRedisConnection<String, String> direct = client.connect();
        WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "100ms")) {
      sampler.scheduleAtFixedRate(
          () -> highest.accumulateAndGet(direct.sync().zcard(keys.sessions("shop")), Math::max),
          0,
          20,
          TimeUnit.MILLISECONDS);
      // Product 4's queue is off: three newcomers go straight in, with passes.
      for (int i = 0; i < 3; i++) {
        assertThat(passed(new Visitor(port).json("/products/4"))).as("newcomer %d", i).isTrue();
      }
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> active.read().block().fullRooms().contains("shop"));

      Visitor late = new Visitor(port);
      Visitor elsewhere = new Visitor(port);
      HttpResponse<String> quiet = late.json("/products/4");
      assertThat(waits(quiet)).as("the quiet item's newcomer waits: %s", quiet.body()).isTrue();
      HttpResponse<String> other = elsewhere.json("/products/5");
      assertThat(waits(other)).as("so does another item's: %s", other.body()).isTrue();

      // The three sessions end 15 to 16.5 s after their last request (long enough for a loaded
      // machine to send the two newcomers before); then the two go in.
      List<Visitor> admitted = new ArrayList<>(List.of(late, elsewhere));
      await()
          .atMost(Duration.ofSeconds(40))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                admitted.removeIf(v -> passed(v.json(v == late ? "/products/4" : "/products/5")));
                return admitted.isEmpty();
              });
      assertThat(highest.get()).isLessThanOrEqualTo(3);
      // With two of three places taken, under nine tenths: newcomers pass again.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> !active.read().block().fullRooms().contains("shop"));
      assertThat(passed(new Visitor(port).json("/products/6"))).isTrue();
    } finally {
      sampler.shutdownNow();
      client.shutdown();
    }
  }
}
