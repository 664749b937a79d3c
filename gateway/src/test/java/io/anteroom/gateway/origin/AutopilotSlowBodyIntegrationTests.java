package io.anteroom.gateway.origin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.SlowBody;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.monitoring.WorkerApp;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The auto-pilot in front of a healthy origin, while anonymous clients drip POST bodies over 3 s to
 * an item whose queue is off (four a second, answered 405 by the origin once the body is in) and
 * others ask for that item plainly. Four browsers the line admitted to product 3 read it ten times
 * a second; a worker steers the room (target p95 800 ms, floor 0.1). What is claimed: the
 * attackers' requests are neither timed from their start nor taken for pass holders', so the share
 * the worker decides never drops.
 */
@GatewayIntegrationTest
class AutopilotSlowBodyIntegrationTests {

  static final QueueId HOT = QueueId.of("shop", "3");
  static final Duration ATTACK = Duration.ofSeconds(10);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policies;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired QueueKeys keys;

  @Test
  void slowBodiesOfAnonymousClientsLeaveTheAutopilotsShareAlone() throws Exception {
    settings
        .put(
            "shop",
            null,
            Map.of(
                "admit-per-second", "10",
                "autopilot", "on",
                "autopilot-p95", "800ms",
                "autopilot-errors", "0.05",
                "autopilot-floor", "0.1"))
        .block();
    await().atMost(Duration.ofSeconds(10)).until(() -> policies.policy("shop").autopilot().on());
    origin.stubFor(get(urlPathMatching("/.*")).willReturn(aResponse().withStatus(200)));
    origin.stubFor(post(urlPathMatching("/.*")).willReturn(aResponse().withStatus(405)));
    active.activate(HOT, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(HOT));
    List<Visitor> browsers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Visitor browser = new Visitor(port);
      assertThat(browser.page("/products/3").statusCode()).isEqualTo(200);
      browsers.add(browser);
    }

    List<Double> shares = new CopyOnWriteArrayList<>();
    AtomicInteger slowAnswers = new AtomicInteger();
    ScheduledExecutorService pool = Executors.newScheduledThreadPool(24);
    try (WorkerApp worker = new WorkerApp(redis.uri(), "100ms")) {
      for (Visitor browser : browsers) {
        pool.scheduleWithFixedDelay(
            () -> browser.page("/products/3"), 0, 100, TimeUnit.MILLISECONDS);
      }
      pool.scheduleWithFixedDelay(
          () -> new Visitor(port).page("/products/2"), 0, 100, TimeUnit.MILLISECONDS);
      pool.scheduleAtFixedRate(
          () -> {
            if (SlowBody.send(port, "POST", "/products/2", null, 30, Duration.ofSeconds(3))
                == 405) {
              slowAnswers.incrementAndGet();
            }
          },
          0,
          250,
          TimeUnit.MILLISECONDS);
      pool.scheduleAtFixedRate(() -> shares.add(share()), 0, 250, TimeUnit.MILLISECONDS);
      await()
          .pollDelay(ATTACK)
          .atMost(ATTACK.plusSeconds(5))
          .until(() -> shares.size() >= ATTACK.toMillis() / 250);
      pool.shutdownNow();
      worker.kill();
    }

    System.out.printf(
        "slow-body attack: %d slow POSTs answered 405; share min %.2f over %d samples; pilot %s%n",
        slowAnswers.get(),
        shares.stream().mapToDouble(Double::doubleValue).min().orElse(1),
        shares.size(),
        redis.server().command("HGET", keys.pilot("shop"), "reason"));
    assertThat(slowAnswers.get()).as("slow POSTs the origin answered").isGreaterThan(10);
    assertThat(shares).as("the auto-pilot's share while attacked").allMatch(share -> share > 0.8);
  }

  private double share() {
    String share = redis.server().command("HGET", keys.pilot("shop"), "share");
    return share == null || share.isEmpty() ? 1 : Double.parseDouble(share);
  }
}
