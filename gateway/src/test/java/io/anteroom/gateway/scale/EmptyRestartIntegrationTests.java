package io.anteroom.gateway.scale;

import static io.anteroom.gateway.scale.StoreLossChecks.ABANDON;
import static io.anteroom.gateway.scale.StoreLossChecks.BURST;
import static io.anteroom.gateway.scale.StoreLossChecks.HOLD;
import static io.anteroom.gateway.scale.StoreLossChecks.PASS_HEADER;
import static io.anteroom.gateway.scale.StoreLossChecks.RATE;
import static io.anteroom.gateway.scale.StoreLossChecks.TICK;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.TokenProperties;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.LatencyProxy;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServer;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis comes back empty under load: two gateways and two workers serve two lines through one
 * address (a TCP proxy), and the redis-server behind it is killed ({@code kill -9}) and replaced by
 * an empty one, as a restart without persistence or a failover to a replica that had nothing would
 * leave it. Each server's {@code MONITOR} stream is replayed on its own ({@link AdmissionReplay}):
 * the second from the empty store it started with.
 *
 * <p>What must hold: the queues that were on are on again, with the room's live settings; nobody
 * reaches the origin without a pass of a visitor the line admitted; those waiting at the loss come
 * back ahead of everyone who came after it, and the line admits in order; the rate and the cap hold
 * on the new server from its first command.
 */
@SystemTest
class EmptyRestartIntegrationTests {

  static final int CAP = 5;
  static final int LINE = 60;

  static final QueueId BY_RATE = QueueId.of("shop", "1");
  static final QueueId BY_CAP = QueueId.of("shop", "2");
  static final Map<String, String> SETTINGS =
      Map.of(
          "admit-per-second", "" + (int) RATE,
          "admit-burst", "500ms",
          "max-active", "1000",
          "session-duration", "10m",
          "2/max-active", "" + CAP,
          "2/session-duration", "2s");

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  final AtomicInteger target = new AtomicInteger();
  LatencyProxy proxy;
  Instances instances;

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
    proxy.close();
  }

  @Test
  void theLineStaysClosedAndComesBackInOrderWhenRedisReturnsEmpty() {
    RedisServer first = redis.server();
    target.set(first.port());
    proxy = LatencyProxy.to(target::get);
    arrangeRoom(proxy.redisUri());
    instances = new Instances("empty-restart", proxy.redisUri());
    RedisMonitor firstMonitor = instances.keep(new RedisMonitor(redis.host(), first.port()));
    String pass = "--anteroom.gateway.forward-pass-header=" + PASS_HEADER;
    GatewayApp east = instances.keep(new GatewayApp(proxy.redisUri(), origin, pass, ABANDON));
    GatewayApp west = instances.keep(new GatewayApp(proxy.redisUri(), origin, pass, ABANDON));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  gateway.bean(ActiveQueueMirror.class).isActive(BY_RATE)
                      && gateway.bean(ActiveQueueMirror.class).isActive(BY_CAP)
                      && gateway.bean(RoomPolicyMirror.class).policy(BY_CAP).maxActive() == CAP);
    }
    Crowd crowd = instances.keep(new Crowd(east.port(), west.port()));
    crowd.keepWaiting(BY_RATE.item(), LINE);
    crowd.keepWaiting(BY_CAP.item(), LINE / 4);
    // Every waiting page asks within a second, well inside the hold.
    crowd.keepAsking(LINE * 2, Duration.ofSeconds(1));
    await("lines forming")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                crowd.waiting(BY_RATE.item()) >= LINE && crowd.waiting(BY_CAP.item()) >= LINE / 4);
    instances.startWorker(proxy.redisUri(), TICK, ABANDON);
    instances.startWorker(proxy.redisUri(), TICK, ABANDON);
    instances.mark("two-workers");
    sleep(Duration.ofSeconds(5));

    RedisServer second = instances.keep(RedisServer.start());
    RedisMonitor secondMonitor = instances.keep(new RedisMonitor(second.host(), second.port()));
    instances.mark("loss");
    target.set(second.port());
    first.kill();
    List<RedisMonitor.Command> before = firstMonitor.stop();
    instances.report("redis-server killed, an empty one behind the same address");
    sleep(HOLD.plusSeconds(10));
    crowd.close();
    instances.workers.forEach(worker -> worker.kill());
    List<RedisMonitor.Command> after = secondMonitor.stop();

    SoftAssertions softly = new SoftAssertions();
    RedisClient client = RedisClient.create(second.uri());
    try {
      RedisCommands<String, String> now = client.connect().sync();
      softly
          .assertThat(now.hgetall(keys.active()))
          .as("queues on again")
          .containsEntry(BY_RATE.toString(), "manual")
          .containsEntry(BY_CAP.toString(), "manual");
      softly
          .assertThat(now.hgetall(keys.settings("shop")))
          .as("live settings written back")
          .containsExactlyInAnyOrderEntriesOf(SETTINGS);
    } finally {
      client.shutdown();
    }
    StoreLossChecks checks = new StoreLossChecks(instances, softly);
    Map<QueueId, List<AdmissionReplay>> replays = new java.util.HashMap<>();
    for (QueueId queue : List.of(BY_RATE, BY_CAP)) {
      AdmissionReplay was =
          AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(queue), before);
      AdmissionReplay is =
          AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(queue), after);
      checks.oldLineFirst(queue, was, is);
      checks.rateHolds(queue, is, RATE, BURST);
      replays.put(queue, List.of(was, is));
    }
    AdmissionReplay capAfter = replays.get(BY_CAP).get(1);
    instances.report(
        "%s: most running on the new server %d, cap %d", BY_CAP, capAfter.maxRunning(), CAP);
    softly
        .assertThat(capAfter.maxRunning())
        .as("running on the new server")
        .isLessThanOrEqualTo(CAP);
    checks.originSeesOnlyPasses(
        origin, crowd, east.bean(TokenProperties.class), PASS_HEADER, replays);
    softly.assertAll();
  }

  private void arrangeRoom(String uri) {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(uri, Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      RedisSettingsStore settings = new RedisSettingsStore(connector.commands(), keys);
      settings
          .put(
              "shop",
              null,
              Map.of(
                  "admit-per-second", "" + (int) RATE,
                  "admit-burst", "500ms",
                  "max-active", "1000",
                  "session-duration", "10m"))
          .block();
      settings
          .put("shop", BY_CAP.item(), Map.of("max-active", "" + CAP, "session-duration", "2s"))
          .block();
      RedisActiveQueues active = new RedisActiveQueues(connector.commands(), keys);
      active.activate(BY_RATE, Activation.MANUAL).block();
      active.activate(BY_CAP, Activation.MANUAL).block();
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
