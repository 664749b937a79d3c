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
import io.anteroom.testing.TimingSensitive;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
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
 * an item whose queue is off (a new one every 250 ms, so about a dozen at once, answered 405 by the
 * origin once the body is in) and another asks for that item plainly ten times a second, a new
 * visitor each time. Four browsers the line admitted to product 3 read it ten times a second; a
 * worker steers the room (target p95 800 ms, floor 0.1) for {@link #ATTACK}, long enough for three
 * of its cuts. What is claimed: the attackers' requests are neither timed from their start nor
 * taken for the line's pass holders', so the share the worker decides stays at 0.8 or above (one
 * cut at most, which a loaded machine's own slowness may cause).
 */
@GatewayIntegrationTest
@TimingSensitive
class AutopilotSlowBodyIntegrationTests {

  static final QueueId HOT = QueueId.of("shop", "3");
  static final Duration ATTACK = Duration.ofSeconds(20);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policies;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired QueueKeys keys;

  final List<Double> shares = new CopyOnWriteArrayList<>();
  final AtomicInteger slowAnswers = new AtomicInteger();

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

    // Each periodic task runs on a thread of its own; the slow POSTs, each holding a thread for
    // its 3 s, are handed to a pool that grows as they overlap.
    ScheduledExecutorService clients = Executors.newScheduledThreadPool(6);
    ExecutorService slowClients = Executors.newCachedThreadPool();
    try (WorkerApp worker = new WorkerApp(redis.uri(), "100ms")) {
      for (Visitor browser : browsers) {
        clients.scheduleWithFixedDelay(
            quietly(() -> browser.page("/products/3")), 0, 100, TimeUnit.MILLISECONDS);
      }
      Visitor anonymous = new Visitor(port);
      clients.scheduleWithFixedDelay(
          quietly(
              () -> {
                anonymous.clearCookies();
                anonymous.page("/products/2");
              }),
          0,
          100,
          TimeUnit.MILLISECONDS);
      clients.scheduleAtFixedRate(
          () -> slowClients.execute(quietly(this::slowPost)), 0, 250, TimeUnit.MILLISECONDS);
      long start = System.nanoTime();
      await()
          .atMost(ATTACK.plusSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () -> {
                shares.add(share());
                return System.nanoTime() - start >= ATTACK.toNanos() && slowAnswers.get() >= 3;
              });
      clients.shutdownNow();
      slowClients.shutdownNow();
      worker.kill();
    }

    System.out.printf(
        "slow-body attack: %d slow POSTs answered 405; share min %.2f over %d samples; pilot %s%n",
        slowAnswers.get(),
        shares.stream().mapToDouble(Double::doubleValue).min().orElse(1),
        shares.size(),
        redis.server().command("HGET", keys.pilot("shop"), "reason"));
    assertThat(slowAnswers.get()).as("slow POSTs the origin answered").isGreaterThanOrEqualTo(3);
    assertThat(shares).as("the auto-pilot's share while attacked").allMatch(share -> share >= 0.8);
  }

  private void slowPost() {
    if (SlowBody.send(port, "POST", "/products/2", null, 30, Duration.ofSeconds(3)) == 405) {
      slowAnswers.incrementAndGet();
    }
  }

  /**
   * {@code task}, its failures (a request timed out on a loaded machine) ignored, so it repeats.
   */
  private static Runnable quietly(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        // The next round asks again.
      }
    };
  }

  private double share() {
    String share = redis.server().command("HGET", keys.pilot("shop"), "share");
    return share == null || share.isEmpty() ? 1 : Double.parseDouble(share);
  }
}
