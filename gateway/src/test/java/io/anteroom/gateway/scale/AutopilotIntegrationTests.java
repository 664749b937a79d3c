package io.anteroom.gateway.scale;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * The auto-pilot with two gateways and two workers on one Redis, in front of a WireMock origin
 * whose answers change mid-test: healthy, then slow (700 ms against a target of 300 ms), then
 * failing (503), then healthy again. A dozen pass holders the line let in browse all along through
 * both gateways, so the gateways have answers to report (a pass given while the queue is off would
 * steer nothing); a long line waits, so the admission rate shows. The share the workers decided and
 * the line's admissions are sampled from Redis every 250 ms.
 *
 * <p>What is claimed: around a healthy origin the room admits at the configured rate, steady; the
 * share drops within {@value #REACTION_SECONDS} s of the origin turning slow; it never rises above
 * the configured rate, and admissions never outrun the ceiling; a failing origin takes it down to
 * half or less; once the origin is healthy again it climbs back toward the configured rate; and
 * turning it off admits at the configured rate at once.
 */
@SystemTest
class AutopilotIntegrationTests {

  static final QueueId QUEUE = QueueId.of("shop", "7");
  static final String PAGE = "/products/7";
  static final double RATE = 10;
  static final int BROWSERS = 12;
  static final int LINE = 900;
  static final long REACTION_SECONDS = 10;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  final List<Sample> samples = new CopyOnWriteArrayList<>();
  final List<String> problems = new CopyOnWriteArrayList<>();
  final ExecutorService pool = Executors.newFixedThreadPool(BROWSERS + 2);
  Instances instances;
  volatile boolean stopped;

  /** One look at Redis: when, the auto-pilot's share, the line's admissions so far. */
  record Sample(long nanos, double share, long admitted) {}

  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisSettingsStore(connector.commands(), keys)
          .put(
              "shop",
              null,
              Map.of(
                  "admit-per-second", "" + (int) RATE,
                  "admit-burst", "1s",
                  "max-active", "100000",
                  "session-duration", "10m",
                  "autopilot", "on",
                  "autopilot-p95", "300ms",
                  "autopilot-errors", "0.05",
                  "autopilot-floor", "1",
                  "reentry-max", "0"))
          .block();
    }
    instances = new Instances("autopilot", redis.uri());
  }

  @AfterEach
  void stopEverything() throws Exception {
    stopped = true;
    pool.shutdownNow();
    pool.awaitTermination(15, TimeUnit.SECONDS);
    instances.close();
  }

  @Test
  void theRateFollowsTheOriginsHealthWithinTheConfiguredRate() throws Exception {
    GatewayApp east = instances.keep(new GatewayApp(redis.uri(), origin));
    GatewayApp west = instances.keep(new GatewayApp(redis.uri(), origin));
    instances.startWorker(redis.uri(), "100ms");
    instances.startWorker(redis.uri(), "100ms");
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> gateway.bean(RoomPolicyMirror.class).policy("shop").autopilot().on());
    }

    // The queue on first, and the browsers let in by the line (at the configured rate, a dozen
    // within a second or two): only passes the line gave steer the auto-pilot. Then the line forms.
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
    }
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> gateway.bean(ActiveQueueMirror.class).isActive(QUEUE));
    }
    List<Visitor> browsers = new ArrayList<>();
    for (int i = 0; i < BROWSERS; i++) {
      browsers.add(admittedByTheLine(new Visitor(east.port())));
    }
    int[] ports = {east.port(), west.port()};
    List<Visitor> line =
        IntStream.range(0, LINE)
            .parallel()
            .mapToObj(
                i -> {
                  Visitor waiting = new Visitor(ports[i % 2]);
                  waiting.json(PAGE);
                  return waiting;
                })
            .toList();
    // Each comes back once, as a waiting page does: one who never returns is let go after the
    // first-return minute, and this line must outlast every phase.
    line.parallelStream().forEach(waiting -> waiting.json("/_anteroom/status?room=shop"));
    for (int i = 0; i < BROWSERS; i++) {
      Visitor browser = browsers.get(i);
      pool.submit(() -> browse(browser, ports));
    }
    pool.submit(this::sample);
    instances.report("line of %d formed, %d browsing", LINE, BROWSERS);
    // The first answers of gateways just started can be slow enough to cut the share: the phases
    // start once it is back at the configured rate.
    await("at the configured rate")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                samples.size() > 8
                    && samples.subList(samples.size() - 8, samples.size()).stream()
                        .allMatch(s -> s.share() == 1));

    long healthy = phase("healthy", Duration.ofSeconds(12));
    origin.stubFor(any(urlPathMatching(".*")).willReturn(page().withFixedDelay(700)));
    long slow = phase("slow", Duration.ofSeconds(15));
    origin.stubFor(any(urlPathMatching(".*")).willReturn(aResponse().withStatus(503)));
    long failing = phase("failing", Duration.ofSeconds(10));
    origin.stubFor(any(urlPathMatching(".*")).willReturn(page()));
    long recovered = phase("healthy again", Duration.ofSeconds(35));
    long end = System.nanoTime();
    stopped = true;

    SoftAssertions soft = new SoftAssertions();
    List<Sample> steady = between(healthy + seconds(4), slow);
    double mean = steady.stream().mapToDouble(Sample::share).average().orElseThrow();
    soft.assertThat(steady)
        .as("around a healthy origin: within a fifth of the mean share %.2f", mean)
        .allMatch(s -> s.share() >= 0.8 * mean && s.share() <= 1.2 * mean);
    soft.assertThat(mean).as("a healthy origin is served at the configured rate").isEqualTo(1.0);
    soft.assertThat(
            between(slow, slow + seconds(REACTION_SECONDS)).stream().anyMatch(s -> s.share() < 1))
        .as("the share drops within %d s of the origin turning slow", REACTION_SECONDS)
        .isTrue();
    soft.assertThat(samples).as("never above the configured rate").allMatch(s -> s.share() <= 1);
    soft.assertThat(maxAdmittedIn(Duration.ofSeconds(2)))
        .as("admissions in any 2 s: at most 2 s of the ceiling, its 1 s burst and a tick")
        .isLessThanOrEqualTo((long) (RATE * 3) + 1);
    Sample lastFailing = between(failing, recovered).get(between(failing, recovered).size() - 1);
    soft.assertThat(lastFailing.share())
        .as("a failing origin: half or less")
        .isLessThanOrEqualTo(0.5);
    double failingRate = rate(between(failing + seconds(5), recovered));
    soft.assertThat(failingRate)
        .as("admissions per second late in the failure")
        .isLessThanOrEqualTo(RATE * 0.6);
    List<Sample> after = between(recovered, end);
    soft.assertThat(after.get(after.size() - 1).share())
        .as("back toward the configured rate after the recovery")
        .isGreaterThanOrEqualTo(0.9);
    soft.assertThat(rate(between(end - seconds(8), end)))
        .as("admissions per second at the end, above those of the failure")
        .isGreaterThan(failingRate);
    soft.assertThat(problems).as("browsers' problems").isEmpty();
    soft.assertAll();
  }

  @Test
  void turningItOffAdmitsAtTheConfiguredRateAtOnce() throws Exception {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 1000))) {
      RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
      RoomPolicy policy = RoomPolicy.DEFAULTS;
      Flux.range(0, 300).flatMap(i -> store.enqueue(QUEUE, "v-" + i, policy), 32).blockLast();
      // The auto-pilot holds a tenth of the rate, and has just seen the origin: with no answers to
      // measure now, it keeps holding.
      long now = System.currentTimeMillis();
      new RedisPilot(connector.commands(), keys, Clock.systemUTC())
          .step(
              "shop",
              PilotState.START,
              new PilotState(
                  0.1, now, "origin errors 50 % above the 5.0 % tolerated", 1, 0, now, 0.1))
          .block();
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
      instances.startWorker(redis.uri(), "100ms");
      pool.submit(this::sample);
      await().atMost(Duration.ofSeconds(30)).until(() -> admitted() > 0);

      phase("held at a tenth", Duration.ofSeconds(5));
      long held = System.nanoTime();
      new RedisSettingsStore(connector.commands(), keys)
          .put("shop", null, Map.of("autopilot", "off"))
          .block();
      long off = phase("off", Duration.ofSeconds(1));
      phase("off", Duration.ofSeconds(5));
      stopped = true;

      assertThat(rate(between(held - seconds(4), held)))
          .as("admissions per second at a tenth of 10 a second")
          .isLessThanOrEqualTo(RATE * 0.2);
      assertThat(rate(between(off, System.nanoTime())))
          .as("admissions per second from a second after it was turned off")
          .isGreaterThanOrEqualTo(RATE * 0.8);
    }
  }

  /** {@code browser}, let in by the line: it asks for the page, then polls until its turn. */
  private static Visitor admittedByTheLine(Visitor browser) {
    if (!browser.page(PAGE).body().contains("Product page")) {
      await("a browser's turn")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  "admitted"
                      .equals(
                          Visitor.text(
                              browser.json("/_anteroom/status?room=shop").body(), "state")));
    }
    assertThat(browser.page(PAGE).body()).contains("Product page");
    return browser;
  }

  private long admitted() {
    String admitted = instances.redis().hget(keys.state(QUEUE), "admitted");
    return admitted == null ? 0 : Long.parseLong(admitted);
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder page() {
    return aResponse()
        .withStatus(200)
        .withHeader("Content-Type", "text/html")
        .withBody("<html><body>Product page</body></html>");
  }

  /** Marks a phase and lets it run; when it began. */
  private long phase(String name, Duration length) throws InterruptedException {
    long start = System.nanoTime();
    instances.report("%s for %s; share %.2f", name, length, lastShare());
    Thread.sleep(length.toMillis());
    return start;
  }

  private double lastShare() {
    return samples.isEmpty() ? 1 : samples.get(samples.size() - 1).share();
  }

  /** A pass holder asking for the page through both gateways in turn, ten times a second. */
  private void browse(Visitor browser, int[] ports) {
    int turn = 0;
    while (!stopped) {
      try {
        int status = browser.at(ports[turn++ % 2]).page(PAGE).statusCode();
        if (status != 200 && status != 503) {
          problems.add("a pass holder was answered " + status);
        }
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (!stopped) {
          problems.add("a pass holder's request failed: " + e);
        }
      }
    }
  }

  private void sample() {
    var commands = instances.redis();
    while (!stopped) {
      String share = commands.hget(keys.pilot("shop"), "share");
      String admitted = commands.hget(keys.state(QUEUE), "admitted");
      samples.add(
          new Sample(
              System.nanoTime(),
              share == null ? 1 : Double.parseDouble(share),
              admitted == null ? 0 : Long.parseLong(admitted)));
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private List<Sample> between(long from, long to) {
    return samples.stream().filter(s -> s.nanos() >= from && s.nanos() < to).toList();
  }

  /** Admissions per second from the first to the last of {@code span}. */
  private static double rate(List<Sample> span) {
    Sample first = span.get(0);
    Sample last = span.get(span.size() - 1);
    return (last.admitted() - first.admitted()) * 1e9 / (last.nanos() - first.nanos());
  }

  /** The most admissions between two samples at most {@code window} apart. */
  private long maxAdmittedIn(Duration window) {
    long most = 0;
    for (int i = 0; i < samples.size(); i++) {
      for (int j = i + 1;
          j < samples.size() && samples.get(j).nanos() - samples.get(i).nanos() <= window.toNanos();
          j++) {
        most = Math.max(most, samples.get(j).admitted() - samples.get(i).admitted());
      }
    }
    return most;
  }

  private static long seconds(long seconds) {
    return TimeUnit.SECONDS.toNanos(seconds);
  }
}
