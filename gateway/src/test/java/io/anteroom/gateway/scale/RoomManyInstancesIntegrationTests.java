package io.anteroom.gateway.scale;

import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.monitoring.WorkerApp;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.scale.RoomReplay.Admission;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A room with room-wide limits served by two gateways and three admission workers on one Redis,
 * each an application of its own: three hot products with long lines, weighted 2, 1 and 1, and a
 * quiet product whose queue is off. What Redis executed is read back through {@code MONITOR} and
 * replayed ({@link RoomReplay}), so the room's rate is judged on its token bucket's own clock and
 * its sessions after every command Redis ran, never on when this JVM saw something happen.
 *
 * <p>Sessions last {@value #SESSION} (idle limit 6.6 s), so at {@value #RATE} a second the room's
 * total active users ({@value #TOTAL}) binds part of the time and its rate the rest. (Long enough
 * that an admitted visitor of the crowd, asking a few times a second, learns of it before the
 * session ends.)
 */
@SystemTest
class RoomManyInstancesIntegrationTests {

  static final double RATE = 12; // new-users-per-minute 720: a bucket of 12
  static final double BURST = 12;
  static final int TOTAL = 60;
  static final String SESSION = "6s";
  static final int LINE = 40;
  static final String TICK = "100ms";
  static final long[] WINDOWS_MS = {100, 250, 500, 1_000, 2_000, 5_000};
  static final Duration HOT = Duration.ofSeconds(15);
  static final long SHARE_WINDOW_MS = 10_000;

  static final String ROOM = "shop";
  static final QueueId HEAVY = QueueId.of(ROOM, "1");
  static final QueueId SECOND = QueueId.of(ROOM, "2");
  static final QueueId THIRD = QueueId.of(ROOM, "3");
  static final List<QueueId> HOT_QUEUES = List.of(HEAVY, SECOND, THIRD);
  static final Map<String, Double> WEIGHTS = Map.of("1", 2.0, "2", 1.0, "3", 1.0);
  static final String QUIET = "4";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  Instances instances;
  List<WorkerApp> workers;
  RedisCommands<String, String> commands;

  /** A newcomer on the quiet product, and whether the room was marked full around the arrival. */
  record Arrival(boolean fullBefore, boolean passed, boolean fullAfter) {}

  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      RedisSettingsStore settings = new RedisSettingsStore(connector.commands(), keys);
      settings
          .put(
              ROOM,
              null,
              Map.of(
                  "new-users-per-minute", "" + (int) (RATE * 60),
                  "total-active-users", "" + TOTAL,
                  "admit-per-second", "" + (int) RATE,
                  "max-active", "" + TOTAL,
                  "session-duration", SESSION,
                  "abandon-after", "10m",
                  "cool-down", "1s"))
          .block();
      settings.put(ROOM, HEAVY.item(), Map.of("weight", "2")).block();
      RedisActiveQueues active = new RedisActiveQueues(connector.commands(), keys);
      for (QueueId queue : HOT_QUEUES) {
        active.activate(queue, Activation.MANUAL).block();
      }
    }
    instances = new Instances("room-many-instances", redis.uri());
    workers = instances.workers;
    commands = instances.redis();
  }

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  @Test
  void twoGatewaysAndThreeWorkersKeepTheRoomsRateTotalAndSharesAndHoldTheQuietItemWhileFull() {
    RedisMonitor monitor = instances.keep(new RedisMonitor(redis.host(), redis.port()));
    GatewayApp east = instances.keep(new GatewayApp(redis.uri(), origin));
    GatewayApp west = instances.keep(new GatewayApp(redis.uri(), origin));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  HOT_QUEUES.stream().allMatch(gateway.bean(ActiveQueueMirror.class)::isActive)
                      && gateway.bean(RoomPolicyMirror.class).policy(HEAVY).budget().weight()
                          == 2.0);
    }
    Crowd crowd = instances.keep(new Crowd(east.port(), west.port()));
    for (QueueId queue : HOT_QUEUES) {
      crowd.keepWaiting(queue.item(), LINE);
    }
    crowd.keepAsking();
    await("lines forming")
        .atMost(Duration.ofSeconds(60))
        .until(() -> HOT_QUEUES.stream().allMatch(q -> crowd.waiting(q.item()) >= LINE));
    instances.report("gateways up, lines formed");
    RunningSampler sampler = instances.keep(new RunningSampler(redis.uri(), keys.sessions(ROOM)));

    for (int i = 1; i <= 3; i++) {
      instances.startWorker(redis.uri(), TICK);
    }
    instances.mark("hot");
    List<Arrival> whileHot = new CopyOnWriteArrayList<>();
    long hotEnds = System.nanoTime() + HOT.toNanos();
    while (System.nanoTime() < hotEnds) {
      whileHot.add(arriveQuietly(crowd));
      sleep(Duration.ofMillis(1_000));
    }
    instances.mark("drain");
    crowd.stopJoining();
    await("hot lines drained and the room no longer full")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> HOT_QUEUES.stream().allMatch(q -> crowd.waiting(q.item()) == 0) && !full());
    instances.mark("roomy");
    List<Arrival> afterwards = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      afterwards.add(arriveQuietly(crowd));
    }
    await("everyone who waited for the quiet product is in")
        .atMost(Duration.ofSeconds(30))
        .until(() -> crowd.waiting(QUIET) == 0);
    instances.mark("end");

    crowd.close();
    sampler.close();
    workers.forEach(WorkerApp::kill);
    workers.clear();
    List<RedisMonitor.Command> executed = monitor.stop();
    RoomReplay room = RoomReplay.of(keys.sessions(ROOM), keys.budget(ROOM), executed);

    SoftAssertions softly = new SoftAssertions();
    instances.report(
        "executed commands %d, visitor requests %d", executed.size(), crowd.requests());
    replayMatchesRedis(softly, room);
    rateHolds(softly, room);
    totalHolds(softly, room, sampler);
    sharesFollowWeights(softly, room);
    orderKept(softly, executed);
    quietItemWaitsWhileFull(softly, whileHot, afterwards);
    softly.assertThat(crowd.problems()).as("answers no visitor should get").isEmpty();
    softly.assertAll();
  }

  private Arrival arriveQuietly(Crowd crowd) {
    boolean before = full();
    boolean passed = crowd.arrive(QUIET);
    return new Arrival(before, passed, full());
  }

  /** Whether the room is marked at its limits in Redis, where enter.lua reads it. */
  private boolean full() {
    return "1".equals(commands.hget(keys.budget(ROOM), "full"));
  }

  private void replayMatchesRedis(SoftAssertions softly, RoomReplay room) {
    instances.report(
        "room: %d admissions replayed, %d sessions at the end (Redis %d)",
        room.admissions().size(), room.sessions(), commands.zcard(keys.sessions(ROOM)));
    softly
        .assertThat((long) room.sessions())
        .as("sessions replayed")
        .isEqualTo(commands.zcard(keys.sessions(ROOM)));
    long admitted = 0;
    for (QueueId queue : HOT_QUEUES) {
      admitted += Long.parseLong(commands.hget(keys.state(queue), "admitted"));
    }
    long hot = room.admissions().stream().filter(a -> WEIGHTS.containsKey(a.item())).count();
    softly.assertThat(hot).as("hot admissions replayed").isEqualTo(admitted);
  }

  /** In every window W of the room bucket's clock: admitted ≤ rate·W + burst. */
  private void rateHolds(SoftAssertions softly, RoomReplay room) {
    List<Long> times = room.admissions().stream().map(Admission::bucketMs).toList();
    for (long window : WINDOWS_MS) {
      int peak = Timeline.peak(times, window);
      double bound = RATE * window / 1000.0 + BURST;
      instances.report("room: peak admissions in %d ms = %d, bound %.1f", window, peak, bound);
      softly
          .assertThat((double) peak)
          .as("room admissions in %d ms", window)
          .isLessThanOrEqualTo(bound + 1e-6);
    }
    List<Long> hot = times(room.between("hot", "drain"));
    instances.report(
        "room: %.1f admissions a second while hot (rate %.0f)", Timeline.rate(hot), RATE);
    softly
        .assertThat(Timeline.rate(hot))
        .as("the room admitted while hot")
        .isGreaterThan(0.5 * Math.min(RATE, TOTAL / 6.6));
  }

  /** After every command Redis ran, and in every sample: sessions ≤ total active users. */
  private void totalHolds(SoftAssertions softly, RoomReplay room, RunningSampler sampler) {
    instances.report(
        "room: most sessions replayed %d, sampled %d over %d samples, total %d",
        room.maxSessions(), sampler.max(), sampler.samples(), TOTAL);
    softly.assertThat(room.maxSessions()).as("sessions, replayed").isLessThanOrEqualTo(TOTAL);
    softly.assertThat(sampler.max()).as("sessions, sampled").isLessThanOrEqualTo(TOTAL);
    softly.assertThat(room.maxSessions()).as("total active users was reached").isEqualTo(TOTAL);
  }

  /** Over 10 s while every hot line was long: each hot queue's share within ±20 % of its weight. */
  private void sharesFollowWeights(SoftAssertions softly, RoomReplay room) {
    List<Admission> hot = room.between("hot", "drain");
    softly.assertThat(hot).as("admissions while hot").isNotEmpty();
    if (hot.isEmpty()) {
      return;
    }
    // From the first admission: the workers start one by one.
    long from = hot.get(0).bucketMs() + 1_000;
    List<Admission> window =
        hot.stream()
            .filter(a -> a.bucketMs() >= from && a.bucketMs() < from + SHARE_WINDOW_MS)
            .filter(a -> WEIGHTS.containsKey(a.item()))
            .toList();
    softly
        .assertThat(hot.get(hot.size() - 1).bucketMs())
        .as("the hot phase covers the window")
        .isGreaterThanOrEqualTo(from + SHARE_WINDOW_MS);
    double weights = WEIGHTS.values().stream().mapToDouble(Double::doubleValue).sum();
    for (Map.Entry<String, Double> weight : WEIGHTS.entrySet()) {
      long count = window.stream().filter(a -> a.item().equals(weight.getKey())).count();
      double share = count / (double) window.size();
      double expected = weight.getValue() / weights;
      instances.report(
          "shop:%s: %d of %d hot admissions in 10 s, share %.3f, weight's %.3f",
          weight.getKey(), count, window.size(), share, expected);
      softly
          .assertThat(share)
          .as("share of shop:%s", weight.getKey())
          .isBetween(0.8 * expected, 1.2 * expected);
    }
    softly.assertThat(window.size()).as("hot admissions in the window").isGreaterThan(40);
  }

  private void orderKept(SoftAssertions softly, List<RedisMonitor.Command> executed) {
    for (QueueId queue : HOT_QUEUES) {
      AdmissionReplay line =
          AdmissionReplay.of(ManyInstancesIntegrationTests.keyPrefix(queue), executed);
      softly.assertThat(line.disorder()).as("%s admissions out of arrival order", queue).isEmpty();
    }
  }

  private void quietItemWaitsWhileFull(
      SoftAssertions softly, List<Arrival> whileHot, List<Arrival> afterwards) {
    List<Arrival> heldBack =
        whileHot.stream().filter(a -> a.fullBefore() && a.fullAfter()).toList();
    instances.report(
        "quiet product: %d arrivals while hot, %d of them with the room full throughout, %d"
            + " passed at once; afterwards %s",
        whileHot.size(),
        heldBack.size(),
        whileHot.stream().filter(Arrival::passed).count(),
        afterwards);
    softly.assertThat(heldBack).as("arrivals while the room was full").hasSizeGreaterThan(3);
    softly
        .assertThat(heldBack)
        .as("newcomers on the quiet product while the room was full")
        .noneMatch(Arrival::passed);
    softly
        .assertThat(afterwards)
        .as("newcomers on the quiet product once the room had room")
        .allMatch(Arrival::passed);
  }

  private static List<Long> times(List<Admission> admissions) {
    return admissions.stream().map(Admission::bucketMs).toList();
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
