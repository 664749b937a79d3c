package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.simulator.Arrivals;
import io.anteroom.simulator.Behaviour;
import io.anteroom.simulator.Outcome;
import io.anteroom.simulator.Recording;
import io.anteroom.simulator.Simulation;
import io.anteroom.simulator.Spread;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServer;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator agrees with the real system: 5,000 newcomers arrive at two gateways in front of a
 * line of 100 admissions a second that one worker admits from, and the gateways record every
 * arrival ({@code record-arrivals: 1}); then the recording, downloaded from the admin API as an
 * operator would, runs through {@code ./anteroom simulate}'s {@link Simulation} under the same
 * settings. Their waits' p50 and p90 agree within 10 %.
 *
 * <p>The real waits are read from the line itself once it has emptied: a visitor's join is their
 * {@code seen} time (nobody polls: every wait is far shorter than abandon-after) and their
 * admission their session's time in {@code running} (nobody comes back with the pass to move it); a
 * visitor admitted at once has no {@code seen} entry and waited nothing.
 */
@SystemTest
class SimulatorAgreementIntegrationTests {

  static final QueueId QUEUE = QueueId.of("shop", "1");
  static final int PEOPLE = 5_000;
  static final Map<String, String> SETTINGS =
      Map.of(
          "admit-per-second", "100",
          "admit-burst", "1s",
          "max-active", "100000",
          "session-duration", "10m",
          "abandon-after", "2m",
          "record-arrivals", "1");
  static final String ADMIN = "admin-token-0123456789abcdef";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  @TempDir Path dir;
  Instances instances;

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  @Test
  void waitsOfTheRealLineAndOfTheSimulationAgreeWithinTenPercent() throws Exception {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisSettingsStore(connector.commands(), keys).put("shop", null, SETTINGS).block();
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
    }
    instances = new Instances("agreement", redis.uri());
    RedisCommands<String, String> commands = instances.redis();
    String token = "--anteroom.admin.token=" + ADMIN;
    GatewayApp east = instances.keep(new GatewayApp(redis.uri(), origin, token));
    GatewayApp west = instances.keep(new GatewayApp(redis.uri(), origin, token));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> gateway.bean(ActiveQueueMirror.class).isActive(QUEUE));
    }
    instances.startWorker(redis.uri(), "250ms");

    arrive(List.of(east.port(), west.port()));
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> commands.zcard(keys.waiting(QUEUE)) == 0);

    // Nobody polls: each last-seen time is still the one a join writes, abandon-after minus the
    // time to come back once before the join.
    RoomPolicy policy = PolicyParser.apply("test", RoomPolicy.DEFAULTS, SETTINGS);
    long newcomer = policy.abandonAfter().minus(policy.firstReturnWithin()).toMillis();
    Map<String, Double> seen = scores(commands.zrangeWithScores(keys.seen(QUEUE), 0, -1));
    Map<String, Double> admitted = scores(commands.zrangeWithScores(keys.running(QUEUE), 0, -1));
    assertThat(admitted).hasSize(PEOPLE);
    Histogram real = new Histogram(3);
    for (Map.Entry<String, Double> session : admitted.entrySet()) {
      double admission = session.getValue();
      Double joined = seen.get(session.getKey());
      real.recordValue(Math.round(joined == null ? 0 : admission - (joined + newcomer)));
    }
    Arrivals same = Recording.read(download(east.managementPort(), dir.resolve("arrivals.csv")));
    assertThat(same.size()).isEqualTo(PEOPLE);
    assertThat(same.items()).containsExactly(QUEUE.item());

    Outcome simulated;
    try (RedisServer own = RedisServer.start()) {
      RedisClient client = RedisClient.create(own.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        simulated =
            new Simulation(connection.async())
                .run(
                    "same settings",
                    PolicyParser.apply("test", RoomPolicy.DEFAULTS, SETTINGS),
                    same,
                    new Behaviour(Spread.parse("--session", "10m"), Spread.NEVER, false),
                    1);
      } finally {
        client.shutdown();
      }
    }

    double realP50 = real.getValueAtPercentile(50) / 1000.0;
    double realP90 = real.getValueAtPercentile(90) / 1000.0;
    instances.report(
        "real p50 %.2fs p90 %.2fs; simulated p50 %.2fs p90 %.2fs; recorded arrivals over %.1fs",
        realP50,
        realP90,
        simulated.waitSeconds(50),
        simulated.waitSeconds(90),
        same.span() / 1000.0);
    assertThat(simulated.admitted()).isEqualTo(PEOPLE);
    // The crowd came faster than the line admits: most waited, for seconds.
    assertThat(realP50).isGreaterThan(3);
    assertThat(simulated.waitSeconds(50)).isCloseTo(realP50, withinPercent(realP50));
    assertThat(simulated.waitSeconds(90)).isCloseTo(realP90, withinPercent(realP90));
  }

  /**
   * The room's recording, from the admin API, once every gateway has flushed what it held (a flush
   * a second).
   */
  private static Path download(int managementPort, Path file) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + managementPort + "/admin/api/rooms/shop/arrivals"))
            .header("Authorization", "Bearer " + ADMIN)
            .build();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                http.send(request, HttpResponse.BodyHandlers.ofFile(file)).statusCode() == 200
                    && Files.readAllLines(file).size() == PEOPLE + 2);
    return file;
  }

  private static org.assertj.core.data.Offset<Double> withinPercent(double value) {
    return org.assertj.core.data.Offset.offset(value * 0.10);
  }

  /**
   * Sends {@link #PEOPLE} newcomers, a fresh visitor each (no cookies), two a millisecond across
   * the gateways in turn, without waiting for the answers, as a crowd does.
   */
  private void arrive(List<Integer> ports) {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < PEOPLE; i++) {
      long due = start + i * 1_000_000L;
      LockSupport.parkNanos(due - System.nanoTime());
      URI uri = URI.create("http://localhost:" + ports.get(i % ports.size()) + "/products/1");
      answers.add(
          http.sendAsync(
              HttpRequest.newBuilder(uri).header("Accept", "application/json").GET().build(),
              HttpResponse.BodyHandlers.discarding()));
    }
    long failed =
        answers.stream()
            .map(CompletableFuture::join)
            .filter(answer -> answer.statusCode() >= 500)
            .count();
    instances.report("%d newcomers sent, %d answers of 5xx", PEOPLE, failed);
    assertThat(failed).isZero();
  }

  private static Map<String, Double> scores(List<ScoredValue<String>> entries) {
    Map<String, Double> scores = new HashMap<>();
    entries.forEach(entry -> scores.put(entry.getValue(), entry.getScore()));
    return scores;
  }
}
