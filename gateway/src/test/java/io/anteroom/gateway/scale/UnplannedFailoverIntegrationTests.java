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
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisCluster;
import io.anteroom.testing.redis.RedisSentinelGroup;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Redis primary holding a line dies ({@code kill -9}) while two gateways and two workers serve
 * it, and its replica is promoted: by the Sentinels, or by the Redis Cluster's other nodes. The old
 * primary's {@code MONITOR} stream is replayed up to its death; the replica's line is read the
 * moment the primary dies (nothing writes to it until its promotion) and replayed on from there
 * with its own stream ({@link AdmissionReplay#startingFrom}).
 *
 * <p>Replication is asynchronous, so what the primary did in its last moment may be missing on the
 * replica: the places and admissions lost are counted and printed, and bounded by what a second of
 * this line writes. Nobody admitted on the old primary whose admission reached the replica is
 * admitted again, the promoted replica admits in the line's order and within the rate, admission
 * resumes within a stated time, and the origin sees only passes of admitted visitors.
 */
@SystemTest
class UnplannedFailoverIntegrationTests {

  static final String PASS_HEADER = "Anteroom-Pass";
  static final double RATE = 10;
  static final double BURST = 5; // admit-burst 500ms at 10 a second
  static final int LINE = 40;
  static final String TICK = "100ms";
  static final long[] WINDOWS_MS = {100, 250, 500, 1_000, 2_000, 5_000};
  static final String ABANDON = "--anteroom.defaults.abandon-after=20s";

  /** What a second of this line writes: its rate of admissions and as many joins. */
  static final int SECOND_OF_WRITES = (int) (2 * RATE);

  static final QueueId QUEUE = QueueId.of("shop", "1");

  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  Instances instances;
  AutoCloseable store;

  @AfterEach
  void stopEverything() throws Exception {
    if (instances != null) {
      instances.close();
    }
    store.close();
  }

  @Test
  void aSentinelMasterKilledUnderLoad() {
    RedisSentinelGroup group = RedisSentinelGroup.start();
    store = group;
    RedisServer primary = group.primary();
    RedisServer replica = group.servers().get(1);
    serveThroughTheDeath(
        "sentinel-kill",
        new RedisProperties(group.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000),
        List.of(),
        primary,
        replica,
        false,
        former -> group.awaitFailoverFrom(former, Duration.ofSeconds(30)),
        // down-after-milliseconds 1 s, the election, and a worker tick or two.
        Duration.ofSeconds(10));
  }

  @Test
  void aClusterPrimaryKilledUnderLoad() {
    RedisCluster cluster = RedisCluster.start();
    store = cluster;
    RedisServer primary = cluster.primaryOf(keys.waiting(QUEUE));
    RedisServer replica = cluster.replicaOf(primary);
    serveThroughTheDeath(
        "cluster-kill",
        RedisProperties.cluster(
            List.of(cluster.seeds().split(",")),
            Duration.ofSeconds(2),
            Duration.ofSeconds(1),
            1000),
        List.of("--anteroom.redis.cluster-nodes=" + cluster.seeds()),
        primary,
        replica,
        true,
        former ->
            await("the replica promoted")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> replica.command("ROLE").startsWith("master\n")),
        // cluster-node-timeout 5 s, the election, the clients' topology refresh, a tick.
        Duration.ofSeconds(15));
  }

  private void serveThroughTheDeath(
      String name,
      RedisProperties properties,
      List<String> redisArgs,
      RedisServer primary,
      RedisServer replica,
      boolean clusterReplica,
      Consumer<RedisServer> awaitPromotion,
      Duration resumeBound) {
    arrangeRoom(properties);
    instances = new Instances(name, "redis://" + replica.host() + ":" + replica.port());
    RedisMonitor before = instances.keep(new RedisMonitor(primary.host(), primary.port()));
    String[] args = appArgs(redisArgs);
    // The apps are given the uri; for a cluster it is unused: cluster-nodes, in redisArgs, wins.
    String redisUri = properties.uri();
    GatewayApp east = instances.keep(new GatewayApp(redisUri, origin, args));
    GatewayApp west = instances.keep(new GatewayApp(redisUri, origin, args));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  gateway.bean(ActiveQueueMirror.class).isActive(QUEUE)
                      && gateway.bean(RoomPolicyMirror.class).policy(QUEUE).admitPerSecond()
                          == RATE);
    }
    Crowd crowd = instances.keep(new Crowd(east.port(), west.port()));
    crowd.keepWaiting(QUEUE.item(), LINE);
    crowd.keepAsking(LINE * 2, Duration.ofSeconds(1));
    await("line forming").atMost(Duration.ofSeconds(60)).until(() -> crowd.waiting("1") >= LINE);
    instances.startWorker(redisUri, TICK, args);
    instances.startWorker(redisUri, TICK, args);
    instances.report("two workers");
    pause(Duration.ofSeconds(4));

    primary.kill();
    long killedAt = System.currentTimeMillis();
    ReplicaLine held = ReplicaLine.read(replica, keys, clusterReplica);
    List<RedisMonitor.Command> onPrimary = before.stop();
    instances.report("primary killed; the replica held %d waiting", held.waiting().size());
    awaitPromotion.accept(primary);
    // Sentinel drops the promoted server's clients: the stream is watched from here on, with
    // writes paused for the moment it takes to read the line the replay starts from.
    replica.command("CLIENT", "PAUSE", "5000", "WRITE");
    ReplicaLine promoted = ReplicaLine.read(replica, keys, false);
    RedisMonitor after = instances.keep(new RedisMonitor(replica.host(), replica.port()));
    replica.command("CLIENT", "UNPAUSE");
    instances.report("replica promoted after %d ms", System.currentTimeMillis() - killedAt);
    pause(Duration.ofSeconds(6));
    crowd.close();
    instances.workers.forEach(worker -> worker.kill());
    List<RedisMonitor.Command> onReplica = after.stop();

    String prefix = ManyInstancesIntegrationTests.keyPrefix(QUEUE);
    AdmissionReplay was = AdmissionReplay.of(prefix, onPrimary);
    AdmissionReplay is =
        AdmissionReplay.startingFrom(
                prefix, promoted.waiting(), promoted.running(), promoted.refill())
            .then(onReplica);
    SoftAssertions softly = new SoftAssertions();
    lossBounded(softly, was, held, promoted, is);
    resumesInOrderAtTheRate(softly, is, killedAt, resumeBound);
    Set<String> runningRead = new HashSet<>(held.running());
    runningRead.addAll(promoted.running());
    originSeesOnlyPasses(softly, crowd, east.bean(TokenProperties.class), was, is, runningRead);
    softly.assertAll();
  }

  /** What the replica missed of the primary's last moment, and what that cost, printed. */
  private void lossBounded(
      SoftAssertions softly,
      AdmissionReplay was,
      ReplicaLine held,
      ReplicaLine promoted,
      AdmissionReplay is) {
    Set<String> onReplica = new HashSet<>(held.waiting().keySet());
    onReplica.addAll(held.running());
    long placesLost = was.inLine().stream().filter(v -> !onReplica.contains(v)).count();
    Set<String> admittedOnPrimary = new HashSet<>();
    was.admissions().forEach(a -> admittedOnPrimary.add(a.visitor()));
    long admissionsLost =
        admittedOnPrimary.stream().filter(v -> !held.running().contains(v)).count();
    // Admitted on the promoted server: in the replay, or in the moment before it was watched.
    Set<String> admittedSince = new HashSet<>(promoted.running());
    admittedSince.removeAll(held.running());
    is.admissions().forEach(a -> admittedSince.add(a.visitor()));
    long twice = admittedSince.stream().filter(admittedOnPrimary::contains).count();
    long twiceThoughReplicated = admittedSince.stream().filter(held.running()::contains).count();
    instances.report(
        "%d waiting and %d admitted on the primary; lost on the replica: %d places, %d"
            + " admissions; admitted again after the promotion: %d",
        was.inLine().size(), admittedOnPrimary.size(), placesLost, admissionsLost, twice);
    softly.assertThat(was.inLine()).as("waiting at the primary's death").isNotEmpty();
    softly.assertThat(placesLost).as("places lost").isLessThanOrEqualTo(SECOND_OF_WRITES);
    softly.assertThat(admissionsLost).as("admissions lost").isLessThanOrEqualTo(SECOND_OF_WRITES);
    softly.assertThat(twice).as("admitted again").isLessThanOrEqualTo(admissionsLost);
    softly.assertThat(twiceThoughReplicated).as("admitted again though replicated").isZero();
  }

  private void resumesInOrderAtTheRate(
      SoftAssertions softly, AdmissionReplay is, long killedAt, Duration resumeBound) {
    List<Long> times = is.admissions().stream().map(Admission::bucketMs).toList();
    softly.assertThat(times).as("admitted after the promotion").isNotEmpty();
    if (!times.isEmpty()) {
      long resumedAfter = times.get(0) - killedAt;
      instances.report(
          "first admission %d ms after the kill (bound %d ms); %d admitted since, %.1f/s",
          resumedAfter, resumeBound.toMillis(), times.size(), Timeline.rate(times));
      softly
          .assertThat(resumedAfter)
          .as("admission resumed after, ms")
          .isLessThanOrEqualTo(resumeBound.toMillis());
    }
    for (long window : WINDOWS_MS) {
      int peak = Timeline.peak(times, window);
      double bound = RATE * window / 1000.0 + BURST;
      instances.report("peak admissions in %d ms = %d, bound %.1f", window, peak, bound);
      softly
          .assertThat((double) peak)
          .as("admissions in %d ms", window)
          .isLessThanOrEqualTo(bound + 1e-6);
    }
    softly.assertThat(is.disorder()).as("admissions out of order").isEmpty();
  }

  /**
   * Every request the origin got carries a valid pass of an admitted visitor: one the replays saw
   * admitted, or one running on the replica at the primary's death or on the promoted server when
   * it was first read. The replays miss those two moments: the primary's last commands when its
   * MONITOR stream dies with it, and the promoted server's first ones before it was watched.
   */
  private void originSeesOnlyPasses(
      SoftAssertions softly,
      Crowd crowd,
      TokenProperties tokens,
      AdmissionReplay was,
      AdmissionReplay is,
      Set<String> runningRead) {
    List<LoggedRequest> reached = origin.findAll(getRequestedFor(urlPathMatching("/products/.*")));
    int fine = 0;
    for (LoggedRequest request : reached) {
      Clock then = Clock.fixed(request.getLoggedDate().toInstant(), ZoneOffset.UTC);
      Verified<Pass> pass =
          TokenCodec.from(tokens, then).readPass(request.getHeader(PASS_HEADER), "shop");
      if (pass instanceof Verified.Valid<Pass> valid
          && valid.value().opens(QUEUE)
          && (was.wasAdmitted(valid.value().visitor())
              || is.wasAdmitted(valid.value().visitor())
              || runningRead.contains(valid.value().visitor()))) {
        fine++;
      }
    }
    List<String> problems = crowd.problems();
    instances.report(
        "origin: %d requests, %d with a valid pass of an admitted visitor; other answers: %d %s",
        reached.size(), fine, problems.size(), problems.stream().limit(5).toList());
    softly.assertThat(fine).as("origin requests with a valid pass").isEqualTo(reached.size());
    softly.assertThat(reached.size()).as("visitors reached the origin").isGreaterThan(40);
    softly
        .assertThat(problems)
        .as("no 500, beyond the failure policy's answers while the primary was gone")
        .allMatch(p -> !p.contains("answered 500"));
  }

  /** The line as the replica holds it: frozen between the primary's death and its promotion. */
  record ReplicaLine(Map<String, Double> waiting, Set<String> running, long refill) {

    static ReplicaLine read(RedisServer replica, QueueKeys keys, boolean clustered) {
      RedisClient client = RedisClient.create("redis://" + replica.host() + ":" + replica.port());
      try {
        RedisCommands<String, String> sync = client.connect().sync();
        if (clustered) {
          sync.readOnly();
        }
        Map<String, Double> waiting = new LinkedHashMap<>();
        for (ScoredValue<String> place : sync.zrangeWithScores(keys.waiting(QUEUE), 0, -1)) {
          waiting.put(place.getValue(), place.getScore());
        }
        Set<String> running = Set.copyOf(sync.zrange(keys.running(QUEUE), 0, -1));
        String refill = sync.hget(keys.state(QUEUE), "refill");
        return new ReplicaLine(waiting, running, refill == null ? 0 : Long.parseLong(refill));
      } finally {
        client.shutdown();
      }
    }
  }

  private String[] appArgs(List<String> redisArgs) {
    List<String> args = new java.util.ArrayList<>(redisArgs);
    args.add("--anteroom.gateway.forward-pass-header=" + PASS_HEADER);
    args.add(ABANDON);
    return args.toArray(String[]::new);
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
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
