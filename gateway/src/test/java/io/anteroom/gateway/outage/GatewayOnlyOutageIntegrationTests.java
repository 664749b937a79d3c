package io.anteroom.gateway.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.monitoring.WorkerApp;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.LatencyProxy;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis stays up for the worker but refuses the gateway (its ACL user switched off and its
 * connections killed), or answers it slowly, for twice {@code abandon-after}: the visitors' polls
 * cannot arrive, or most of them, yet those who kept polling keep their places, in order, and one
 * who had left before is still given up once the gateway is back. The line is paused, so only
 * abandonment can move it.
 */
@SystemTest
class GatewayOnlyOutageIntegrationTests {

  static final String USER = "gateway";
  static final String PASSWORD = "gateway-secret";
  static final Duration ABANDON_AFTER = Duration.ofSeconds(8);
  static final Duration OUTAGE = Duration.ofSeconds(16);
  static final QueueId QUEUE = QueueId.of("shop", "1");
  static final String STATUS = "/_anteroom/status?room=shop";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  final List<AutoCloseable> open = new ArrayList<>();
  RedisClient client;

  @AfterEach
  void stopEverything() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    if (client != null) {
      client.shutdown();
    }
  }

  @Test
  void visitorsWhosePollsCouldNotArriveKeepTheirPlacesAndOneWhoLeftIsStillGivenUp() {
    client = RedisClient.create(redis.uri());
    RedisCommands<String, String> admin = client.connect().sync();
    admin.aclSetuser(
        USER,
        AclSetuserArgs.Builder.on().addPassword(PASSWORD).allKeys().allChannels().allCommands());
    pausedLine();
    GatewayApp gateway =
        keep(
            new GatewayApp(
                "redis://" + USER + ":" + PASSWORD + "@" + redis.host() + ":" + redis.port(),
                origin));
    awaitPausedLine(gateway);
    WorkerApp worker = keep(new WorkerApp(redis.uri(), "100ms"));

    List<Visitor> staying = join(gateway, 5);
    Visitor leaving = join(gateway, 1).get(0);
    String leaver = admin.zrange(keys.waiting(QUEUE), 5, 5).get(0);

    AtomicInteger refused = poll(staying);
    sleep(Duration.ofSeconds(2));

    report("cutting the gateway off Redis for %s (abandon-after %s)", OUTAGE, ABANDON_AFTER);
    admin.aclSetuser(USER, AclSetuserArgs.Builder.off());
    admin.clientKill(io.lettuce.core.KillArgs.Builder.user(USER));
    sleep(OUTAGE);
    admin.aclSetuser(USER, AclSetuserArgs.Builder.on());
    report("gateway let back in; %d polls refused meanwhile", refused.get());
    assertThat(refused.get()).as("polls refused while cut off").isPositive();
    assertThat(worker.isAdmitting()).isTrue();

    // One answer can come through while the breaker is half-open and the next be refused again:
    // wait until every visitor is answered.
    placesKept(staying);
    await("the visitor who left is given up")
        .atMost(ABANDON_AFTER.plus(OUTAGE).plusSeconds(10))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> admin.zscore(keys.waiting(QUEUE), leaver) == null);
    assertThat(admin.zcard(keys.waiting(QUEUE))).as("the others still wait").isEqualTo(5);
  }

  /**
   * Redis answers the gateway, but in 300 ms (under the command timeout, over the breaker's
   * slow-call threshold), for twice {@code abandon-after}, while the worker reaches it at once: the
   * breaker opens, lets a few polls try again every 2 s and opens again, so most polls are refused
   * and those that get through keep a few visitors seen. The gateway's beat stops while any
   * visitor's call is refused, so the workers hold back giving the others up.
   */
  @Test
  void aRedisSlowForTheGatewayLongerThanAbandonAfterCostsNobodyTheirPlace() {
    client = RedisClient.create(redis.uri());
    RedisCommands<String, String> admin = client.connect().sync();
    pausedLine();
    LatencyProxy slow = keep(LatencyProxy.to(redis.server()::port));
    GatewayApp gateway = keep(new GatewayApp(slow.redisUri(), origin));
    awaitPausedLine(gateway);
    WorkerApp worker = keep(new WorkerApp(redis.uri(), "100ms"));
    List<Visitor> staying = join(gateway, 30);
    AtomicInteger refused = poll(staying);
    sleep(Duration.ofSeconds(2));

    report("Redis answers the gateway in 300 ms for %s (abandon-after %s)", OUTAGE, ABANDON_AFTER);
    slow.delay(Duration.ofMillis(300));
    sleep(OUTAGE);
    slow.delay(Duration.ZERO);
    report("Redis fast again; %d polls refused meanwhile", refused.get());
    assertThat(refused.get()).as("polls refused while Redis was slow").isPositive();
    assertThat(worker.isAdmitting()).isTrue();

    placesKept(staying);
    assertThat(admin.zcard(keys.waiting(QUEUE))).isEqualTo(staying.size());
  }

  /**
   * The queue on and the room paused, both as the gateway reads them: a newcomer before the paused
   * setting arrived would be let in at once.
   */
  private static void awaitPausedLine(GatewayApp gateway) {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                gateway.bean(ActiveQueueMirror.class).isActive(QUEUE)
                    && gateway.bean(RoomPolicyMirror.class).policy("shop").mode() == Mode.PAUSED);
  }

  /** {@code count} visitors join the paused line through {@code gateway}, in this order. */
  private static List<Visitor> join(GatewayApp gateway, int count) {
    List<Visitor> visitors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Visitor visitor = new Visitor(gateway.port());
      assertThat(Visitor.text(visitor.json("/products/1").body(), "state")).isEqualTo("paused");
      visitors.add(visitor);
    }
    return visitors;
  }

  /** Each of {@code visitors} polls every half second; counts the polls not answered 200. */
  private AtomicInteger poll(List<Visitor> visitors) {
    AtomicInteger refused = new AtomicInteger();
    ScheduledExecutorService polls = Executors.newSingleThreadScheduledExecutor();
    open.add(polls::shutdownNow);
    polls.scheduleWithFixedDelay(
        () ->
            visitors.forEach(
                visitor -> {
                  if (visitor.json(STATUS).statusCode() != 200) {
                    refused.incrementAndGet();
                  }
                }),
        0,
        500,
        TimeUnit.MILLISECONDS);
    return refused;
  }

  /** Once the gateway answers everyone again, each visitor still waits at their place. */
  private void placesKept(List<Visitor> staying) {
    // One answer can come through while the breaker is half-open and the next be refused again:
    // wait until every visitor is answered.
    await("the gateway reaches Redis again")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> staying.stream().allMatch(v -> v.json(STATUS).statusCode() != 503));
    for (int i = 0; i < staying.size(); i++) {
      HttpResponse<String> answer = staying.get(i).json(STATUS);
      report("visitor %d: %s", i + 1, answer.body());
      assertThat(Visitor.text(answer.body(), "state")).as("visitor %d", i + 1).isEqualTo("paused");
      assertThat(Visitor.field(answer.body(), "position")).as("visitor %d", i + 1).isEqualTo(i + 1);
    }
  }

  private void pausedLine() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisSettingsStore(connector.commands(), keys)
          .put(
              "shop",
              null,
              Map.of("mode", "paused", "abandon-after", ABANDON_AFTER.toSeconds() + "s"))
          .block();
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
    }
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    open.add(closeable);
    return closeable;
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void report(String format, Object... args) {
    System.out.printf("[gateway-only-outage] %s%n", String.format(format, args));
  }
}
