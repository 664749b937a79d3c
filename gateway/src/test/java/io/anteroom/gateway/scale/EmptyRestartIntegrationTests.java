package io.anteroom.gateway.scale;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.scale.AdmissionReplay.Admission;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenProperties;
import io.anteroom.gateway.token.Verified;
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
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
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

  static final String PASS_HEADER = "Anteroom-Pass";
  static final double RATE = 10;
  static final double BURST = 5; // admit-burst 500ms at 10 a second
  static final int CAP = 5;
  static final int LINE = 60;
  static final String TICK = "100ms";
  static final long[] WINDOWS_MS = {100, 250, 500, 1_000, 2_000, 5_000};
  // abandon-after 20s: pages poll at least every 5 s, so the line is held 7 s after the loss
  // (RoomPolicy#rejoinHold).
  static final String ABANDON = "--anteroom.defaults.abandon-after=20s";
  static final Duration HOLD = Duration.ofSeconds(7);

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
    for (QueueId queue : List.of(BY_RATE, BY_CAP)) {
      AdmissionReplay was =
          AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(queue), before);
      AdmissionReplay is =
          AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(queue), after);
      oldLineFirst(softly, queue, was, is);
      rateHolds(softly, queue, is);
    }
    AdmissionReplay capAfter =
        AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(BY_CAP), after);
    instances.report(
        "%s: most running on the new server %d, cap %d", BY_CAP, capAfter.maxRunning(), CAP);
    softly
        .assertThat(capAfter.maxRunning())
        .as("running on the new server")
        .isLessThanOrEqualTo(CAP);
    originSeesOnlyPasses(softly, crowd, east.bean(TokenProperties.class), before, after);
    softly.assertAll();
  }

  /**
   * Those in line at the loss who came back took places ahead of every newcomer, and the line
   * admitted them all before any newcomer; admissions followed the line's order throughout.
   */
  private void oldLineFirst(
      SoftAssertions softly, QueueId queue, AdmissionReplay was, AdmissionReplay is) {
    List<String> waitingAtLoss = was.inLine();
    List<Admission> admissions = is.admissions();
    int firstNewcomer = admissions.size();
    int lastOld = -1;
    int oldAdmitted = 0;
    int twice = 0;
    for (int i = 0; i < admissions.size(); i++) {
      String visitor = admissions.get(i).visitor();
      Double place = is.placeOf(visitor);
      boolean fromBefore = place != null && place < 0;
      if (fromBefore) {
        lastOld = i;
        oldAdmitted++;
      } else if (firstNewcomer == admissions.size()) {
        firstNewcomer = i;
      }
      if (was.wasAdmitted(visitor)) {
        twice++;
      }
    }
    long cameBack = waitingAtLoss.stream().filter(v -> is.placeOf(v) != null).count();
    long cameBackBehind =
        waitingAtLoss.stream().filter(v -> is.placeOf(v) != null && is.placeOf(v) >= 0).count();
    instances.report(
        "%s: %d waiting at the loss, %d came back (%d behind newcomers), %d admitted since;"
            + " %d admissions on the new server, the first newcomer's is number %d; %d admitted"
            + " before the loss were admitted again (their pass not yet fetched); %d arrivals,"
            + " %d waiting at the end",
        queue,
        waitingAtLoss.size(),
        cameBack,
        cameBackBehind,
        oldAdmitted,
        admissions.size(),
        firstNewcomer + 1,
        twice,
        is.arrivals(),
        is.waiting());
    softly.assertThat(waitingAtLoss).as("%s waiting at the loss", queue).isNotEmpty();
    softly.assertThat(cameBackBehind).as("%s came back behind newcomers", queue).isZero();
    softly
        .assertThat(lastOld)
        .as("%s last admission of the old line before the first newcomer's", queue)
        .isLessThan(firstNewcomer);
    softly
        .assertThat(admissions.size())
        .as("%s admitted on the new server", queue)
        .isGreaterThan(firstNewcomer);
    softly.assertThat(is.disorder()).as("%s admissions out of order", queue).isEmpty();
  }

  /** In every window W of the new server's bucket clock: admitted ≤ rate·W + burst. */
  private void rateHolds(SoftAssertions softly, QueueId queue, AdmissionReplay replay) {
    List<Long> times = replay.admissions().stream().map(Admission::bucketMs).toList();
    for (long window : WINDOWS_MS) {
      int peak = Timeline.peak(times, window);
      double bound = RATE * window / 1000.0 + BURST;
      instances.report("%s: peak admissions in %d ms = %d, bound %.1f", queue, window, peak, bound);
      softly
          .assertThat((double) peak)
          .as("%s admissions in %d ms", queue, window)
          .isLessThanOrEqualTo(bound + 1e-6);
    }
  }

  /** Every origin request carries a valid pass of a visitor one of the two servers admitted. */
  private void originSeesOnlyPasses(
      SoftAssertions softly,
      Crowd crowd,
      TokenProperties tokens,
      List<RedisMonitor.Command> before,
      List<RedisMonitor.Command> after) {
    List<AdmissionReplay> replays =
        List.of(BY_RATE, BY_CAP).stream()
            .flatMap(
                q ->
                    List.of(
                        AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(q), before),
                        AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(q), after))
                        .stream())
            .toList();
    List<LoggedRequest> reached = origin.findAll(getRequestedFor(urlPathMatching("/products/.*")));
    int fine = 0;
    for (LoggedRequest request : reached) {
      QueueId queue = request.getUrl().endsWith("/1") ? BY_RATE : BY_CAP;
      Clock then = Clock.fixed(request.getLoggedDate().toInstant(), ZoneOffset.UTC);
      Verified<Pass> pass =
          TokenCodec.from(tokens, then).readPass(request.getHeader(PASS_HEADER), "shop");
      if (pass instanceof Verified.Valid<Pass> valid
          && valid.value().opens(queue)
          && replays.stream().anyMatch(r -> r.wasAdmitted(valid.value().visitor()))) {
        fine++;
      }
    }
    List<String> problems = crowd.problems();
    instances.report(
        "origin: %d requests, %d with a valid pass of an admitted visitor; answers no visitor"
            + " should get: %d %s",
        reached.size(), fine, problems.size(), problems.stream().limit(10).toList());
    softly.assertThat(fine).as("origin requests with a valid pass").isEqualTo(reached.size());
    softly.assertThat(reached.size()).as("visitors reached the origin").isGreaterThan(50);
    softly
        .assertThat(problems)
        .as("answers no visitor should get, beyond the failure policy's during the switch")
        .allMatch(p -> !p.contains(" 500 ") && !p.contains("answered 500"));
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
