package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import io.lettuce.core.ScoredValue;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * 300 visitors meet an active queue in front of a WireMock origin, with the gateway as it ships and
 * an admission worker, all on a real Redis.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.forward-pass-header=Anteroom-Pass",
      "anteroom.rooms.shop.admit-burst=200ms",
      "anteroom.rooms.shop.max-active=1000"
    })
class WaitingRoomEndToEndIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final int VISITORS = 300;
  final QueueId queue = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired RoomPolicies policies;
  @Autowired TokenCodec tokens;
  @Autowired QueueKeys keys;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired SettingsStore settings;

  @Test
  void threeHundredVisitorsGetInAtTheRateInArrivalOrderAndOnlyWithAPass() {
    // People arrive much faster than one per second: all but the first wait.
    settings.put("shop", null, Map.of("admit-per-second", "1")).block();
    active.activate(queue, Activation.MANUAL).block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> mirror.isActive(queue) && policyMirror.policy("shop").admitPerSecond() == 1);

    List<Visitor> visitors = new ArrayList<>();
    List<Long> positions = new ArrayList<>();
    for (int i = 0; i < VISITORS; i++) {
      Visitor visitor = new Visitor(port);
      HttpResponse<String> first = visitor.json("/products/1");
      assertThat(first.statusCode()).isEqualTo(200);
      long position = Visitor.field(first.body(), "position");
      if (position > 0) {
        assertThat(first.headers().firstValue("Cache-Control")).hasValue("no-store");
      } else {
        assertThat(first.body()).as("straight in to the origin").contains("Product page");
        position = 0;
      }
      visitors.add(visitor);
      positions.add(position);
    }
    // The bucket lets the first few straight in; everyone after them waits, in arrival order.
    int straightIn = (int) positions.stream().takeWhile(p -> p == 0).count();
    assertThat(straightIn).isBetween(1, 3);
    for (int i = straightIn; i < VISITORS; i++) {
      assertThat(positions.get(i)).isEqualTo(i - straightIn + 1);
    }
    Visitor refresher = visitors.get(VISITORS - 1);
    assertThat(Visitor.field(refresher.json("/products/1").body(), "position"))
        .as("a refresh keeps the place")
        .isEqualTo(positions.get(VISITORS - 1));
    assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/1")))).hasSize(straightIn);

    // The operator raises the rate live; the worker admits at 50 per second from its first tick.
    settings.put("shop", null, Map.of("admit-per-second", "50")).block();
    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "100ms")) {
      boolean[] admitted = new boolean[VISITORS];
      for (int i = 0; i < straightIn; i++) {
        admitted[i] = true;
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> pollEveryone(visitors, admitted));
    }

    for (Visitor visitor : visitors) {
      HttpResponse<String> page = visitor.page("/products/1");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("Product page");
    }
    List<LoggedRequest> reached = origin.findAll(getRequestedFor(urlPathEqualTo("/products/1")));
    assertThat(reached).hasSize(straightIn + VISITORS);
    for (LoggedRequest request : reached) {
      String forwarded = request.getHeader("Anteroom-Pass");
      Verified<Pass> pass = tokens.readPass(forwarded, "shop");
      assertThat(pass.isValid()).as("every request the origin saw carried a pass").isTrue();
      assertThat(((Verified.Valid<Pass>) pass).value().opens(queue)).isTrue();
      assertThat(request.getHeader("Cookie")).as("Anteroom cookies stay at the gateway").isNull();
    }
    assertAdmissionRate();
  }

  /**
   * One round of status polls in arrival order; true once everyone is in. A visitor found admitted
   * means every earlier arrival is admitted too (the line may have moved during the round, so the
   * earlier ones are asked again).
   */
  private boolean pollEveryone(List<Visitor> visitors, boolean[] admitted) {
    List<Integer> waitingThisRound = new ArrayList<>();
    for (int i = 0; i < visitors.size(); i++) {
      if (admitted[i]) {
        continue;
      }
      String state = state(visitors.get(i));
      if (!"admitted".equals(state)) {
        assertThat(state).isEqualTo("waiting");
        waitingThisRound.add(i);
        continue;
      }
      for (int earlier : waitingThisRound) {
        assertThat(state(visitors.get(earlier)))
            .as("visitor %d arrived before visitor %d, who is in", earlier, i)
            .isEqualTo("admitted");
        admitted[earlier] = true;
      }
      waitingThisRound.clear();
      admitted[i] = true;
    }
    return waitingThisRound.isEmpty();
  }

  private static String state(Visitor visitor) {
    return Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state");
  }

  /** The worker's admission times (running scores) show the configured 50 per second. */
  private void assertAdmissionRate() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 1000))) {
      List<ScoredValue<String>> running =
          connector
              .commands()
              .zrangeWithScores(keys.running(queue), 0, -1)
              .toCompletableFuture()
              .join();
      double first = running.get(30).getScore();
      double last = running.get(running.size() - 30).getScore();
      double rate = (running.size() - 60) / ((last - first) / 1000.0);
      assertThat(rate).isBetween(45.0, 55.0);
    }
  }
}
