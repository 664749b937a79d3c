package io.anteroom.gateway.scale;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.monitoring.WorkerApp;
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
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two gateways and three admission workers on one Redis, each an application of its own with its
 * own Redis connection, with visitors spread over both gateways: the room's rate, its cap on
 * running sessions, the order of the line and the origin's protection hold while one worker is
 * killed (its connection dropped under the tick in flight), while all are dead (nobody is
 * admitted), and after one is started again (the rate resumes, with no more than the bucket's burst
 * to catch up).
 *
 * <p>What Redis executed is read back through {@code MONITOR} and replayed ({@link
 * AdmissionReplay}), so the rate is judged on the token bucket's own clock and the order on the
 * line's own sequence numbers, never on when this JVM saw something happen. Queue {@code shop:1} is
 * held by the rate; queue {@code shop:2} by its cap of running sessions, whose short sessions end
 * and free their slots all the time.
 */
@SystemTest
class ManyInstancesIntegrationTests {

  static final String PASS_HEADER = "Anteroom-Pass";
  static final String PASS_HEADER_ARGUMENT =
      "--anteroom.gateway.forward-pass-header=" + PASS_HEADER;

  static final double RATE = 10;
  static final double BURST = 5; // admit-burst 500ms at 10 a second
  static final int CAP = 5;
  static final int LINE = 200;
  static final String TICK = "100ms";
  static final long TICK_MS = 100;
  static final long[] WINDOWS_MS = {TICK_MS, 250, 500, 1_000, 2_000, 5_000};

  static final QueueId BY_RATE = QueueId.of("shop", "1");
  static final QueueId BY_CAP = QueueId.of("shop", "2");

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();
  Instances instances;
  List<WorkerApp> workers;
  RedisCommands<String, String> commands;

  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
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
    instances = new Instances("many-instances", redis.uri());
    workers = instances.workers;
    commands = instances.redis();
  }

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  @Test
  void twoGatewaysAndThreeWorkersKeepRateCapOrderAndPassesThroughKillsAndARestart() {
    RedisMonitor monitor = instances.keep(new RedisMonitor(redis.host(), redis.port()));
    GatewayApp east = instances.keep(new GatewayApp(redis.uri(), origin, PASS_HEADER_ARGUMENT));
    GatewayApp west = instances.keep(new GatewayApp(redis.uri(), origin, PASS_HEADER_ARGUMENT));
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
    // Ten seconds' worth of admissions in line, so a slow moment of the crowd never lets it run
    // dry.
    crowd.keepWaiting(BY_RATE.item(), LINE);
    crowd.keepWaiting(BY_CAP.item(), LINE / 4);
    crowd.keepAsking();
    await("lines forming")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                crowd.waiting(BY_RATE.item()) >= LINE && crowd.waiting(BY_CAP.item()) >= LINE / 4);
    instances.report("gateways up, lines formed");
    RunningSampler sampler = instances.keep(new RunningSampler(redis.uri(), keys.running(BY_CAP)));

    for (int i = 1; i <= 3; i++) {
      instances.startWorker(redis.uri(), TICK);
    }
    instances.mark("three-workers");
    runFor(Duration.ofSeconds(5), () -> workers.stream().allMatch(WorkerApp::isAdmitting));

    instances.mark("kill-one");
    workers.remove(0).kill();
    runFor(Duration.ofSeconds(5), () -> workers.stream().allMatch(WorkerApp::isAdmitting));

    instances.mark("kill-all");
    workers.forEach(WorkerApp::kill);
    workers.clear();
    instances.mark("all-dead");
    runFor(Duration.ofSeconds(3), () -> true);

    instances.mark("restart");
    instances.startWorker(redis.uri(), TICK);
    runFor(Duration.ofSeconds(5), () -> workers.get(0).isAdmitting());
    instances.mark("end");

    crowd.close();
    sampler.close();
    workers.remove(0).kill();
    List<RedisMonitor.Command> executed = monitor.stop();
    AdmissionReplay byRate = AdmissionReplay.of(keyPrefix(BY_RATE), executed);
    AdmissionReplay byCap = AdmissionReplay.of(keyPrefix(BY_CAP), executed);

    SoftAssertions softly = new SoftAssertions();
    instances.report(
        "executed commands " + executed.size() + ", visitor requests " + crowd.requests());
    replayMatchesRedis(softly, BY_RATE, byRate);
    replayMatchesRedis(softly, BY_CAP, byCap);
    rateHolds(softly, BY_RATE, byRate);
    rateHolds(softly, BY_CAP, byCap);
    capHolds(softly, byCap, sampler);
    orderKept(softly, byRate);
    orderKept(softly, byCap);
    originSeesOnlyPasses(softly, crowd, east.bean(TokenProperties.class), byRate, byCap);
    killingOneChangesNothing(softly, byRate);
    killingAllStops(softly, byRate, byCap);
    restartResumesWithoutCatchUp(softly, byRate);
    softly.assertAll();
  }

  /** The replay ends where Redis ended: it saw every script's effect. */
  private void replayMatchesRedis(SoftAssertions softly, QueueId queue, AdmissionReplay replay) {
    long admitted = Long.parseLong(commands.hget(keys.state(queue), "admitted"));
    instances.report(
        "%s: %d arrivals, %d admitted, %d waiting at the end",
        queue, replay.arrivals(), admitted, commands.zcard(keys.waiting(queue)));
    softly
        .assertThat(replay.admissions())
        .as("%s admissions replayed", queue)
        .hasSize((int) admitted);
    softly
        .assertThat((long) replay.running())
        .as("%s running replayed", queue)
        .isEqualTo(commands.zcard(keys.running(queue)));
    softly
        .assertThat((long) replay.waiting())
        .as("%s waiting replayed", queue)
        .isEqualTo(commands.zcard(keys.waiting(queue)));
  }

  /** In every window W of the bucket's clock: admitted ≤ rate·W + burst. */
  private void rateHolds(SoftAssertions softly, QueueId queue, AdmissionReplay replay) {
    List<Long> times = times(replay.admissions());
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

  private void capHolds(SoftAssertions softly, AdmissionReplay byCap, RunningSampler sampler) {
    instances.report(
        "%s: most running replayed %d, sampled %d over %d samples, cap %d; %d admissions",
        BY_CAP,
        byCap.maxRunning(),
        sampler.max(),
        sampler.samples(),
        CAP,
        byCap.admissions().size());
    softly.assertThat(byCap.maxRunning()).as("running, replayed").isLessThanOrEqualTo(CAP);
    softly.assertThat(sampler.max()).as("running, sampled").isLessThanOrEqualTo(CAP);
    softly.assertThat(sampler.max()).as("the cap was reached").isEqualTo(CAP);
    softly
        .assertThat(byCap.admissions().size())
        .as("slots were freed and given again")
        .isGreaterThan(3 * CAP);
  }

  private void orderKept(SoftAssertions softly, AdmissionReplay replay) {
    softly.assertThat(replay.disorder()).as("admissions out of arrival order").isEmpty();
    softly.assertThat(replay.abandoned()).as("visitors given up").isZero();
  }

  private void originSeesOnlyPasses(
      SoftAssertions softly,
      Crowd crowd,
      TokenProperties tokens,
      AdmissionReplay byRate,
      AdmissionReplay byCap) {
    List<LoggedRequest> reached = origin.findAll(getRequestedFor(urlPathMatching("/products/.*")));
    int fine = 0;
    List<long[]> capPasses = new ArrayList<>();
    for (LoggedRequest request : reached) {
      QueueId queue = request.getUrl().endsWith("/1") ? BY_RATE : BY_CAP;
      AdmissionReplay replay = queue == BY_RATE ? byRate : byCap;
      // Read as the gateway would have when it forwarded the request: short passes expire soon.
      Clock then = Clock.fixed(request.getLoggedDate().toInstant(), ZoneOffset.UTC);
      Verified<Pass> pass =
          TokenCodec.from(tokens, then).readPass(request.getHeader(PASS_HEADER), "shop");
      if (pass instanceof Verified.Valid<Pass> valid
          && valid.value().opens(queue)
          && replay.wasAdmitted(valid.value().visitor())) {
        fine++;
        if (queue == BY_CAP) {
          capPasses.add(new long[] {then.millis(), valid.value().expiresAt().toEpochMilli()});
        }
      }
    }
    // Not a promise the line makes (it caps running sessions), but what the origin lives with:
    // a pass is issued when the visitor learns of the admission and runs a full session from then.
    instances.report(
        "%s: most passes open at once (first use to expiry) %d, cap %d",
        BY_CAP, Timeline.mostAtOnce(capPasses), CAP);
    instances.report(
        "origin: %d requests, %d with a valid pass of a visitor the line admitted; visitors"
            + " let in %d + %d, problems %s",
        reached.size(),
        fine,
        crowd.reachedOrigin(BY_RATE.item()),
        crowd.reachedOrigin(BY_CAP.item()),
        crowd.problems().stream().limit(10).toList());
    softly.assertThat(fine).as("origin requests with a valid pass").isEqualTo(reached.size());
    softly
        .assertThat(reached)
        .as("one origin request for each visitor let in")
        .hasSize(crowd.reachedOrigin(BY_RATE.item()) + crowd.reachedOrigin(BY_CAP.item()));
    softly.assertThat(reached.size()).as("visitors reached the origin").isGreaterThan(100);
    softly.assertThat(crowd.problems()).as("answers no visitor should get").isEmpty();
  }

  private void killingOneChangesNothing(SoftAssertions softly, AdmissionReplay byRate) {
    List<Long> before = times(byRate.between("three-workers", "kill-one"));
    List<Long> after = times(byRate.between("kill-one", "kill-all"));
    instances.report(
        "%s: three workers %.1f/s, longest gap %d ms; after one killed %.1f/s, longest gap %d ms",
        BY_RATE,
        Timeline.rate(before),
        Timeline.maxGap(before),
        Timeline.rate(after),
        Timeline.maxGap(after));
    // At most the rate is what every window above holds; here: at least the rate, still.
    softly
        .assertThat(Timeline.rate(after))
        .as("rate after a kill")
        .isGreaterThanOrEqualTo(0.85 * RATE);
    // A few ticks, with room for this JVM being starved of CPU on a busy machine. A gap shorter
    // than the burst (500 ms) costs no admissions, as the rate over the phase shows.
    softly
        .assertThat(Timeline.maxGap(after))
        .as("longest gap after a kill, ms")
        .isLessThanOrEqualTo(10 * TICK_MS);
  }

  /** Nobody is admitted while every worker is dead, though people wait. */
  private void killingAllStops(
      SoftAssertions softly, AdmissionReplay byRate, AdmissionReplay byCap) {
    instances.report(
        "all workers dead: %d and %d waiting, %d and %d admitted",
        byRate.waitingAt("all-dead"),
        byCap.waitingAt("all-dead"),
        byRate.between("all-dead", "restart").size(),
        byCap.between("all-dead", "restart").size());
    for (AdmissionReplay replay : List.of(byRate, byCap)) {
      softly
          .assertThat(replay.waitingAt("all-dead"))
          .as("waiting as the last worker died")
          .isPositive();
      softly
          .assertThat(replay.between("all-dead", "restart"))
          .as("admitted with no worker")
          .isEmpty();
    }
  }

  private void restartResumesWithoutCatchUp(SoftAssertions softly, AdmissionReplay byRate) {
    List<Long> dead = times(byRate.between("kill-one", "restart"));
    List<Long> resumed = times(byRate.between("restart", "end"));
    softly.assertThat(resumed).as("admitted after the restart").isNotEmpty();
    if (resumed.isEmpty()) {
      return;
    }
    long first = resumed.get(0);
    long idle = first - dead.get(dead.size() - 1);
    int firstTick = Timeline.count(resumed, first, first + TICK_MS);
    int firstSecond = Timeline.count(resumed, first, first + 1_000);
    List<Long> later = resumed.stream().filter(t -> t >= first + 1_000).toList();
    instances.report(
        "%s: restart after %d ms without admissions (%.0f would be owed at the rate): first tick"
            + " %d, first second %d (bound %.0f), then %.1f/s",
        BY_RATE,
        idle,
        idle * RATE / 1000,
        firstTick,
        firstSecond,
        RATE + BURST,
        Timeline.rate(later));
    softly
        .assertThat((double) firstTick)
        .as("first tick after restart")
        .isLessThanOrEqualTo(BURST + RATE * TICK_MS / 1000.0);
    softly
        .assertThat((double) firstSecond)
        .as("first second after restart")
        .isLessThanOrEqualTo(BURST + RATE);
    softly
        .assertThat(Timeline.rate(later))
        .as("rate after restart")
        .isGreaterThanOrEqualTo(0.85 * RATE);
  }

  private static List<Long> times(List<Admission> admissions) {
    return admissions.stream().map(Admission::bucketMs).toList();
  }

  /** Lets the run go on for {@code duration}, failing at once if {@code alive} stops holding. */
  private static void runFor(Duration duration, BooleanSupplier alive) {
    await()
        .during(duration)
        .atMost(duration.plusSeconds(5))
        .pollInterval(Duration.ofMillis(200))
        .until(alive::getAsBoolean);
  }

  /** The queue's keys without the part name, as the replay takes them. */
  static String keyPrefix(QueueId queue) {
    String waiting = new QueueKeys("wr").waiting(queue);
    return waiting.substring(0, waiting.length() - "waiting".length());
  }
}
