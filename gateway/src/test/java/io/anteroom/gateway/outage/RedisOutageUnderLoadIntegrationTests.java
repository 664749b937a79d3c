package io.anteroom.gateway.outage;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.outage.LoadRun.Kind;
import io.anteroom.gateway.outage.LoadRun.Sample;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A real gateway under load from several client threads (visitors holding a pass, and newcomers to
 * an active queue) while Redis is killed with SIGKILL, once per failure policy, or frozen with
 * SIGSTOP for 20 seconds. Pass holders keep getting the origin; newcomers get what the room's
 * failure policy says; nothing else fails; every answer comes within the Redis command timeout plus
 * {@value #MARGIN_MILLIS} ms; and once Redis is back the line works again (newcomers wait, the
 * worker admits) without restarting anything. The measured latencies are printed and written to
 * {@value #REPORT}.
 */
@GatewayIntegrationTest
@SystemTest
class RedisOutageUnderLoadIntegrationTests {

  static final long MARGIN_MILLIS = 2000;
  static final String REPORT = "target/redis-outage-under-load.txt";
  static final String PATH = "/products/1";
  static final int HOLDERS = 3;
  static final int NEWCOMER_THREADS = 3;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @BeforeAll
  static void markDegradedAnswers() throws IOException {
    // The origin says in its answer whether the gateway marked the request as let in unqueued.
    origin.stubFor(
        get(urlPathMatching("/.*"))
            .atPriority(1)
            .withHeader("Anteroom-Degraded", equalTo("line-unavailable"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/html")
                    .withHeader("X-Origin-Saw", "degraded")
                    .withBody("<h1>Product page</h1>")));
    Files.deleteIfExists(Path.of(REPORT));
  }

  @LocalServerPort int port;
  @Autowired AnteroomProperties anteroom;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired RoomPolicies policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired QueueKeys keys;
  @Autowired TokenCodec tokens;

  final QueueId queue = QueueId.of("shop", "1");

  @Test
  void redisKilledUnderLoadWhenTheRoomFailsClosed() throws Exception {
    outage("kill, failure-policy closed", FailurePolicy.CLOSED, Duration.ofSeconds(6), false);
  }

  @Test
  void redisKilledUnderLoadWhenTheRoomFailsOpen() throws Exception {
    outage("kill, failure-policy open", FailurePolicy.OPEN, Duration.ofSeconds(6), false);
  }

  @Test
  void redisFrozenForTwentySecondsUnderLoad() throws Exception {
    outage(
        "SIGSTOP 20 s, failure-policy closed", FailurePolicy.CLOSED, Duration.ofSeconds(20), true);
  }

  private void outage(String name, FailurePolicy policy, Duration length, boolean freeze)
      throws Exception {
    List<Visitor> holders = prepare(policy);
    List<Sample> samples;
    long outageStart;
    long outageEnd;
    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "100ms");
        LoadRun load = new LoadRun(port, PATH, holders, NEWCOMER_THREADS)) {
      LoadRun.hold(Duration.ofSeconds(2));
      if (freeze) {
        redis.server().pause();
      } else {
        redis.server().kill();
      }
      // From here Redis is stopped or gone: a request that started earlier may still have been
      // answered by it.
      outageStart = System.nanoTime();
      LoadRun.hold(length);
      outageEnd = System.nanoTime();
      if (freeze) {
        redis.server().resume();
      } else {
        redis.server().restart();
      }
      lineWorksAgain();
      samples = load.samples();
    }
    Set<String> atOrigin =
        newcomersAtOrigin(origin.findAll(getRequestedFor(urlPathMatching("/.*"))));
    check(name, policy, samples, outageStart, outageEnd, atOrigin);
  }

  /**
   * The room's failure policy and a rate the worker keeps up with; the queue on with a long line,
   * so every newcomer waits while Redis answers; pass holders minted as the gateway mints them.
   */
  private List<Visitor> prepare(FailurePolicy policy) {
    settings
        .put(
            "shop",
            null,
            Map.of(
                "failure-policy", policy.value(), "admit-per-second", "20", "max-active", "100000"))
        .block();
    active.activate(queue, Activation.MANUAL).block();
    QueueFixtures.lineUp(store, policies, queue, 1000);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isActive(queue)
                    && policyMirror.policy(queue).failurePolicy() == policy
                    && "waiting"
                        .equals(Visitor.text(new Visitor(port).json(PATH).body(), "state")));
    List<Visitor> holders = QueueFixtures.passHolders(port, tokens, HOLDERS);
    origin.resetRequests();
    return holders;
  }

  /** Newcomers wait in line again, and the worker admits from it again. */
  private void lineWorksAgain() {
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () ->
                assertThat(Visitor.text(new Visitor(port).json(PATH).body(), "state"))
                    .as("a newcomer waits in line again")
                    .isEqualTo("waiting"));
    long running = store.counts(queue).block().running();
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () ->
                assertThat(store.counts(queue).block().running())
                    .as("the worker admits again")
                    .isGreaterThan(running));
  }

  private void check(
      String name,
      FailurePolicy policy,
      List<Sample> samples,
      long outageStart,
      long outageEnd,
      Set<String> atOrigin)
      throws IOException {
    long bound = anteroom.redis().commandTimeout().toMillis() + MARGIN_MILLIS;
    List<Sample> holders = of(samples, Kind.HOLDER);
    List<Sample> newcomers = of(samples, Kind.NEWCOMER);
    List<Sample> newcomersDuring =
        newcomers.stream().filter(s -> s.within(outageStart, outageEnd)).toList();
    long holdersDuring = holders.stream().filter(s -> s.within(outageStart, outageEnd)).count();
    String summary =
        String.format(
            "%s: %d requests (%d by pass holders, %d by newcomers; %d and %d during the outage),"
                + " max latency %d ms (pass holders %d ms, newcomers %d ms), bound %d ms,"
                + " newcomer answers during the outage %s",
            name,
            samples.size(),
            holders.size(),
            newcomers.size(),
            holdersDuring,
            newcomersDuring.size(),
            max(samples),
            max(holders),
            max(newcomers),
            bound,
            newcomersDuring.stream()
                .collect(Collectors.groupingBy(s -> s.status(), Collectors.counting())));
    System.out.println(summary);
    Files.writeString(
        Path.of(REPORT),
        summary + System.lineSeparator(),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);

    assertThat(samples).as("client errors and timeouts").allMatch(s -> s.error() == null);
    assertThat(holders).as("pass holders").allMatch(s -> s.status() / 100 == 2);
    assertThat(holders).as("pass holders reach the origin").allMatch(s -> s.state() == null);
    assertThat(newcomers)
        .as("newcomers: waiting, let in, or 503 with Retry-After; nothing else")
        .allMatch(s -> s.status() == 200 || (s.status() == 503 && s.retryAfter() != null));
    assertThat(holdersDuring).as("pass holders during the outage").isGreaterThan(10);
    assertThat(newcomersDuring).as("newcomers during the outage").hasSizeGreaterThan(10);
    if (policy == FailurePolicy.CLOSED) {
      assertThat(newcomersDuring)
          .as("newcomers of a room that fails closed")
          .allMatch(
              s ->
                  s.status() == 503
                      && "5".equals(s.retryAfter())
                      && "unavailable".equals(s.state()));
      assertThat(atOrigin).as("newcomers the origin saw").isEmpty();
    } else {
      assertThat(newcomersDuring)
          .as("newcomers of a room that fails open reach the origin, marked")
          .allMatch(s -> s.status() == 200 && "degraded".equals(s.originSaw()));
    }
    assertThat(max(samples)).as("slowest answer, ms").isLessThanOrEqualTo(bound);
  }

  /** The {@code n} markers of newcomers the origin saw. */
  static Set<String> newcomersAtOrigin(List<LoggedRequest> requests) {
    return requests.stream()
        .map(r -> r.queryParameter("n"))
        .filter(p -> p.isPresent())
        .flatMap(p -> p.values().stream())
        .collect(Collectors.toSet());
  }

  private static List<Sample> of(List<Sample> samples, Kind kind) {
    return samples.stream().filter(s -> s.kind() == kind).toList();
  }

  private static long max(List<Sample> samples) {
    return samples.stream().mapToLong(Sample::millis).max().orElse(0);
  }
}
