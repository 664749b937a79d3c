package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.shadow.WaitQuantiles;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proof of shadow mode: a gateway and a worker, each an application of its own on one Redis,
 * meet the same arrivals on two queues with the same settings, one in mode {@code queue} and one in
 * {@code shadow}. Each newcomer of the schedule is sent to both at the same moment, so both meet
 * the same load on the gateway and the same worker ticks. The would-be waits the virtual line
 * records match, within 10 % at the median and the 90th percentile, the waits visitors had in the
 * real line: admission time minus join time, read from the real line's own sets.
 */
@SystemTest
class ShadowProofIntegrationTests {

  /**
   * 150 newcomers to each queue over 3 s, five times the rate: the first 10 go in at once (a
   * second's burst), the line grows to ~110 and drains in 15 s, the median wait about 5 s, the 90th
   * percentile about 10 s. A light load (100 requests a second in all), so that a busy machine
   * still keeps close to the schedule, and waits long beside the worker's tick (100ms); a burst of
   * a second, so that late ticks of a busy worker still admit at the rate.
   */
  static final int NEWCOMERS = 150;

  static final Duration ARRIVALS = Duration.ofSeconds(3);
  static final Map<String, String> SETTINGS =
      Map.of(
          "admit-per-second", "10",
          "admit-burst", "1s",
          "max-active", "100000",
          "session-duration", "10m",
          "abandon-after", "10m");

  static final QueueId REAL = QueueId.of("shop", "7");
  static final QueueId VIRTUAL = QueueId.of("shop", "8");

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  Instances instances;
  RedisCommands<String, String> commands;

  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      RedisSettingsStore settings = new RedisSettingsStore(connector.commands(), keys);
      settings.put("shop", REAL.item(), with("queue")).block();
      settings.put("shop", VIRTUAL.item(), with("shadow")).block();
      RedisActiveQueues active = new RedisActiveQueues(connector.commands(), keys);
      active.activate(REAL, Activation.MANUAL).block();
      active.activate(VIRTUAL, Activation.MANUAL).block();
    }
    instances = new Instances("shadow-proof", redis.uri());
    commands = instances.redis();
  }

  static Map<String, String> with(String mode) {
    Map<String, String> values = new java.util.HashMap<>(SETTINGS);
    values.put("mode", mode);
    return values;
  }

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  @Test
  void shadowWhenTheSameArrivalsMeetTheSameSettingsThenWouldBeWaitsMatchTheRealOnesWithin10Percent()
      throws Exception {
    GatewayApp gateway = instances.keep(new GatewayApp(redis.uri(), origin));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                gateway.bean(ActiveQueueMirror.class).isActive(REAL)
                    && gateway.bean(ActiveQueueMirror.class).isActive(VIRTUAL)
                    && gateway.bean(RoomPolicyMirror.class).policy(VIRTUAL).mode() == Mode.SHADOW
                    && gateway.bean(RoomPolicyMirror.class).policy(REAL).admitPerSecond() == 10);
    instances.startWorker(redis.uri(), "100ms");
    // The worker ticks on both queues once its first shadow tick has written the virtual state.
    await("worker ticking")
        .atMost(Duration.ofSeconds(20))
        .until(() -> commands.exists(keys.shadow().state(VIRTUAL)) == 1);

    List<List<HttpResponse<String>>> answers = arrive(gateway.port(), List.of(REAL, VIRTUAL));
    List<HttpResponse<String>> real = answers.get(0);
    List<HttpResponse<String>> shadow = answers.get(1);
    await("both lines drained and every would-be wait read")
        .atMost(Duration.ofSeconds(45))
        .until(
            () ->
                commands.zcard(keys.running(REAL)) == NEWCOMERS
                    && commands.llen(keys.shadow().waits(VIRTUAL)) == NEWCOMERS);
    WaitQuantiles realWaits =
        WaitQuantiles.of(realWaits(gateway.bean(RoomPolicyMirror.class).policy(REAL)));
    instances.report("queue: %s", realWaits);
    instances.report(
        "queue: joins over %.1f s, admissions over %.1f s",
        span(commands.zrangeWithScores(keys.seen(REAL), 0, -1)),
        span(commands.zrangeWithScores(keys.running(REAL), 0, -1)));
    WaitQuantiles wouldBe = gateway.bean(ShadowLines.class).waits(VIRTUAL).block();
    instances.report("shadow: %s", wouldBe);

    assertThat(real).extracting(HttpResponse::statusCode).containsOnly(200);
    assertThat(real)
        .filteredOn(r -> r.body().contains("\"state\":\"waiting\""))
        .hasSizeGreaterThan(NEWCOMERS / 2);
    assertThat(shadow).allMatch(r -> r.statusCode() == 200 && r.body().contains("Product page"));
    assertThat(realWaits.count()).isEqualTo(NEWCOMERS);
    assertThat(wouldBe.count()).isEqualTo(NEWCOMERS);
    assertThat(realWaits.p50()).isGreaterThan(Duration.ofSeconds(1));
    assertThat(ratio(wouldBe.p50(), realWaits.p50())).isBetween(0.9, 1.1);
    assertThat(ratio(wouldBe.p90(), realWaits.p90())).isBetween(0.9, 1.1);
    assertThat(commands.exists(keys.waiting(VIRTUAL), keys.seen(VIRTUAL))).isZero();
  }

  /**
   * Sends {@link #NEWCOMERS} newcomers to each of {@code queues}, without cookies, evenly over
   * {@link #ARRIVALS}, one to every queue at each moment, each asking for the queue's item as an
   * app would (JSON); returns every queue's answers once all were answered. Each queue's newcomers
   * have a client of their own, so the slower answers of one (forwarded to the origin) never hold
   * up the connections of the other.
   */
  List<List<HttpResponse<String>>> arrive(int port, List<QueueId> queues) throws Exception {
    List<HttpClient> clients =
        queues.stream()
            .map(queue -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build())
            .toList();
    for (HttpClient client : clients) {
      warm(client, port);
    }
    ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor();
    try {
      List<List<CompletableFuture<HttpResponse<String>>>> answers = new ArrayList<>();
      queues.forEach(queue -> answers.add(new ArrayList<>()));
      long gapNanos = ARRIVALS.toNanos() / NEWCOMERS;
      for (int i = 0; i < NEWCOMERS; i++) {
        List<Runnable> sends = new ArrayList<>();
        for (int q = 0; q < queues.size(); q++) {
          CompletableFuture<HttpResponse<String>> answer = new CompletableFuture<>();
          answers.get(q).add(answer);
          HttpRequest request =
              HttpRequest.newBuilder(
                      URI.create("http://localhost:" + port + "/products/" + queues.get(q).item()))
                  .header("Accept", "application/json")
                  .timeout(Duration.ofSeconds(10))
                  .build();
          HttpClient http = clients.get(q);
          sends.add(
              () ->
                  http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                      .whenComplete(
                          (response, error) -> {
                            if (error != null) {
                              answer.completeExceptionally(error);
                            } else {
                              answer.complete(response);
                            }
                          }));
        }
        schedule.schedule(() -> sends.forEach(Runnable::run), i * gapNanos, TimeUnit.NANOSECONDS);
      }
      List<List<HttpResponse<String>>> answered = new ArrayList<>();
      for (List<CompletableFuture<HttpResponse<String>>> queue : answers) {
        CompletableFuture.allOf(queue.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        answered.add(queue.stream().map(CompletableFuture::join).toList());
      }
      return answered;
    } finally {
      schedule.shutdownNow();
    }
  }

  /**
   * Opens as many connections in {@code client} as it will use, with requests all at once to an
   * item whose queue is off: the answers forwarded to the origin take longer than the waiting
   * pages, and a client short of connections would hold back the later newcomers of one queue only.
   */
  static void warm(HttpClient client, int port) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/products/99"))
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(10))
            .build();
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < NEWCOMERS; i++) {
      answers.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
  }

  /**
   * The waits in the real line: admission (the running score; nobody came back to touch it) minus
   * join (the seen score, kept after admission until abandon-after); 0 for one admitted at once,
   * who never had a seen entry.
   */
  /**
   * Admission minus join of each visitor of the real line. None of them polls, so their last-seen
   * time is still the one a join writes: a newcomer's, {@code abandon-after} minus the time to come
   * back once before the join.
   */
  List<Long> realWaits(RoomPolicy policy) {
    long newcomer = policy.abandonAfter().minus(policy.firstReturnWithin()).toMillis();
    List<Long> waits = new ArrayList<>();
    for (ScoredValue<String> session : commands.zrangeWithScores(keys.running(REAL), 0, -1)) {
      Double seen = commands.zscore(keys.seen(REAL), session.getValue());
      waits.add(seen == null ? 0 : Math.max(0, (long) (session.getScore() - (seen + newcomer))));
    }
    return waits;
  }

  static double span(List<ScoredValue<String>> entries) {
    return (entries.get(entries.size() - 1).getScore() - entries.get(0).getScore()) / 1000;
  }

  static double ratio(Duration a, Duration b) {
    return (double) a.toMillis() / b.toMillis();
  }
}
