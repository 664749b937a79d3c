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
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis comes back older under load: two gateways and two workers serve a line through one address
 * (a TCP proxy); a replica stops following its primary (as one cut off, or paused, would), the line
 * goes on for a few seconds on the primary (people join, people are admitted, a second queue is
 * turned on), and then the primary is killed ({@code kill -9}) and the replica, behind by those
 * seconds, takes its place behind the same address.
 *
 * <p>What must hold: the queue turned on in the lost seconds is on again; those who were in line
 * before the loss, kept by the replica or lost with the seconds it missed, go before every
 * newcomer, and the line admits in order at its rate on the replica from its first command; nobody
 * reaches the origin without a pass of a visitor the line admitted.
 */
@SystemTest
class OlderStoreIntegrationTests {

  static final int LINE = 60;
  static final Duration BEHIND = Duration.ofSeconds(2);

  static final QueueId LINE_QUEUE = QueueId.of("shop", "1");
  static final QueueId TURNED_ON_LATE = QueueId.of("shop", "3");

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
  void aReplicaPromotedSecondsBehindBringsTheQueuesBackAndTheOldLineGoesFirst() {
    RedisServer primary = redis.server();
    target.set(primary.port());
    proxy = LatencyProxy.to(target::get);
    RedisProperties properties =
        new RedisProperties(proxy.redisUri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000);
    arrangeRoom(properties);
    instances = new Instances("older-store", proxy.redisUri());
    RedisMonitor primaryMonitor = instances.keep(new RedisMonitor(redis.host(), primary.port()));
    String pass = "--anteroom.gateway.forward-pass-header=" + PASS_HEADER;
    GatewayApp east = instances.keep(new GatewayApp(proxy.redisUri(), origin, pass, ABANDON));
    GatewayApp west = instances.keep(new GatewayApp(proxy.redisUri(), origin, pass, ABANDON));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> gateway.bean(ActiveQueueMirror.class).isActive(LINE_QUEUE));
    }
    Crowd crowd = instances.keep(new Crowd(east.port(), west.port()));
    crowd.keepWaiting(LINE_QUEUE.item(), LINE);
    crowd.keepAsking(LINE * 2, Duration.ofSeconds(1));
    await("line forming")
        .atMost(Duration.ofSeconds(60))
        .until(() -> crowd.waiting(LINE_QUEUE.item()) >= LINE);
    instances.startWorker(proxy.redisUri(), TICK, ABANDON);
    instances.startWorker(proxy.redisUri(), TICK, ABANDON);
    sleep(Duration.ofSeconds(2));

    RedisServer replica = instances.keep(RedisServer.start());
    replica.command("REPLICAOF", primary.host(), Integer.toString(primary.port()));
    await("replica in sync")
        .atMost(Duration.ofSeconds(10))
        .until(() -> instances.redis().waitForReplication(1, 100) == 1);
    instances.mark("replica-stops");
    replica.command("REPLICAOF", "NO", "ONE");
    try (RedisConnector connector = RedisConnector.connect(properties)) {
      new RedisActiveQueues(connector.commands(), keys)
          .activate(TURNED_ON_LATE, Activation.MANUAL)
          .block();
    }
    sleep(BEHIND);
    Kept kept = Kept.read(replica, keys);
    RedisMonitor replicaMonitor = instances.keep(new RedisMonitor(replica.host(), replica.port()));
    instances.mark("loss");
    target.set(replica.port());
    primary.kill();
    List<RedisMonitor.Command> before = primaryMonitor.stop();
    instances.report(
        "primary killed, the replica %s s behind in its place: %d waiting on it",
        BEHIND.toSeconds(), kept.waiting().size());
    sleep(HOLD.plusSeconds(5));
    crowd.close();
    instances.workers.forEach(worker -> worker.kill());
    List<RedisMonitor.Command> after = replicaMonitor.stop();

    SoftAssertions softly = new SoftAssertions();
    RedisClient client = RedisClient.create(replica.uri());
    try {
      softly
          .assertThat(client.connect().sync().hgetall(keys.active()))
          .as("queues on again, the one turned on in the lost seconds too")
          .containsEntry(LINE_QUEUE.toString(), "manual")
          .containsEntry(TURNED_ON_LATE.toString(), "manual");
    } finally {
      client.shutdown();
    }
    String prefix = ManyInstancesIntegrationTests.keyPrefix(LINE_QUEUE);
    AdmissionReplay was = AdmissionReplay.of(prefix, before);
    AdmissionReplay is =
        AdmissionReplay.startingFrom(prefix, kept.waiting(), kept.running(), kept.refill())
            .then(after);
    StoreLossChecks checks = new StoreLossChecks(instances, softly);
    checks.oldLineFirst(LINE_QUEUE, was, is);
    checks.rateHolds(LINE_QUEUE, is, RATE, BURST);
    checks.originSeesOnlyPasses(
        origin,
        crowd,
        east.bean(TokenProperties.class),
        PASS_HEADER,
        Map.of(LINE_QUEUE, List.of(was, is)));
    softly.assertAll();
  }

  /** The line as the replica kept it when it took the primary's place. */
  record Kept(Map<String, Double> waiting, Set<String> running, long refill) {

    static Kept read(RedisServer server, QueueKeys keys) {
      RedisClient client = RedisClient.create(server.uri());
      try {
        RedisCommands<String, String> commands = client.connect().sync();
        Map<String, Double> waiting = new LinkedHashMap<>();
        for (ScoredValue<String> place :
            commands.zrangeWithScores(keys.waiting(LINE_QUEUE), 0, -1)) {
          waiting.put(place.getValue(), place.getScore());
        }
        Set<String> running = Set.copyOf(commands.zrange(keys.running(LINE_QUEUE), 0, -1));
        String refill = commands.hget(keys.state(LINE_QUEUE), "refill");
        return new Kept(waiting, running, refill == null ? 0 : Long.parseLong(refill));
      } finally {
        client.shutdown();
      }
    }
  }

  private void arrangeRoom(RedisProperties properties) {
    try (RedisConnector connector = RedisConnector.connect(properties)) {
      new RedisSettingsStore(connector.commands(), keys)
          .put(
              "shop",
              null,
              Map.of(
                  "admit-per-second", "" + (int) RATE,
                  "admit-burst", "500ms",
                  "max-active", "1000",
                  "session-duration", "10m"))
          .block();
      new RedisActiveQueues(connector.commands(), keys)
          .activate(LINE_QUEUE, Activation.MANUAL)
          .block();
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
