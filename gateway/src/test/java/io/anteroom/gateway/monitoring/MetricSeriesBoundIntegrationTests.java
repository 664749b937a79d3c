package io.anteroom.gateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.metrics.LineMeters;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * 10,000 made-up item ids through a paused room, each with a visitor who joins its line and comes
 * back once (which turns a paused line on): each is a queue of its own (up to the per-room cap of
 * automatic activations), yet neither app grows a series per item. The scrape after 10,000 ids has
 * as many series as the one after 1,000.
 */
@GatewayIntegrationTest(
    properties = {"anteroom.gateway.max-queues-per-room=500"},
    fixedManagementPort = true)
@AutoConfigureMetrics
@SystemTest
class MetricSeriesBoundIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static WorkerApp worker;

  @BeforeAll
  static void start() {
    worker = new WorkerApp(redis.uri(), "250ms");
  }

  @AfterAll
  static void stop() {
    worker.close();
  }

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicyMirror policyMirror;

  static final int SCRAPE_BUDGET = 2_500;

  /** The first made-up item id; the shop's ids are numbers. */
  static final long FIRST_ITEM = 1_000_000_000L;

  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void tenThousandItemIdsLeaveTheNumberOfSeriesBounded() throws Exception {
    settings.put("shop", null, Map.of("mode", "paused")).block();
    policyMirror.refresh().block();
    assertThat(policyMirror.policy("shop").mode()).isEqualTo(Mode.PAUSED);

    visitItems(0, 1_000);
    awaitWorkerSawAllActiveQueues();
    Scrape gatewayAfter1k = Scrape.of(managementPort);
    Scrape workerAfter1k = Scrape.of(worker.port());

    visitItems(1_000, 10_000);
    awaitWorkerSawAllActiveQueues();
    Scrape gatewayAfter10k = Scrape.of(managementPort);
    Scrape workerAfter10k = Scrape.of(worker.port());

    // The cap is checked against the gateway's mirror, so requests in flight may pass it by a few.
    assertThat(worker.redis().hlen("wr:active")).isBetween(500L, 520L);
    assertThat(anteroomSeries(gatewayAfter10k)).isEqualTo(anteroomSeries(gatewayAfter1k));
    assertThat(anteroomSeries(workerAfter10k)).isEqualTo(anteroomSeries(workerAfter1k));
    // A budget for the whole scrape, which does not grow with items: most of it is Lettuce's
    // latency histogram, about 75 series for each kind of Redis command an app sends.
    assertThat(gatewayAfter10k.samples()).hasSizeLessThan(SCRAPE_BUDGET);
    assertThat(workerAfter10k.samples()).hasSizeLessThan(SCRAPE_BUDGET);
    assertThat(labelValues(gatewayAfter10k)).noneMatch(MetricSeriesBoundIntegrationTests::isItem);
    assertThat(
            labelValues(workerAfter10k).stream().filter(MetricSeriesBoundIntegrationTests::isItem))
        .as("items with series of their own")
        .hasSize(20);
    assertThat(labelValues(workerAfter10k)).contains(LineMeters.OTHER);
  }

  /**
   * Sends one fresh visitor to each of the items {@link #FIRST_ITEM} {@code + from} up to {@code
   * FIRST_ITEM + to - 1}, who joins its line and asks once where it stands.
   */
  void visitItems(int from, int to) throws Exception {
    Semaphore inFlight = new Semaphore(16);
    List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
    for (int i = from; i < to; i++) {
      inFlight.acquire();
      answers.add(
          http.sendAsync(
                  get("/products/" + (FIRST_ITEM + i), null),
                  HttpResponse.BodyHandlers.discarding())
              .thenCompose(
                  joined ->
                      http.sendAsync(
                          get("/_anteroom/status?room=shop", ticket(joined)),
                          HttpResponse.BodyHandlers.discarding()))
              .whenComplete((response, error) -> inFlight.release()));
    }
    for (CompletableFuture<HttpResponse<Void>> answer : answers) {
      assertThat(answer.get().statusCode()).isLessThan(500);
    }
  }

  HttpRequest get(String path, String cookie) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "application/json")
            .timeout(Duration.ofSeconds(10));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return request.build();
  }

  /** The ticket cookie an answer set, as a request sends it back. */
  static String ticket(HttpResponse<?> response) {
    return response.headers().allValues("Set-Cookie").stream()
        .filter(cookie -> cookie.startsWith("anteroom_ticket_shop="))
        .map(cookie -> cookie.substring(0, cookie.indexOf(';')))
        .findFirst()
        .orElseThrow();
  }

  /**
   * Waits until the worker's gauges count everyone in every active queue of the room: each item has
   * one visitor, waiting.
   */
  void awaitWorkerSawAllActiveQueues() {
    await()
        .atMost(30, TimeUnit.SECONDS)
        .untilAsserted(
            () -> {
              long waiting = 0;
              long running = 0;
              List<String> fields = new ArrayList<>(worker.redis().hkeys("wr:active"));
              fields.removeIf(QueueKeys::isStoreField);
              for (String field : fields) {
                QueueId queue = QueueId.parse(field);
                waiting += worker.redis().zcard(new QueueKeys("wr").waiting(queue));
                running += worker.redis().zcard(new QueueKeys("wr").running(queue));
              }
              assertThat(waiting + running).isEqualTo(fields.size());
              Scrape scrape = Scrape.of(worker.port());
              assertThat(scrape.sum("anteroom_queue_waiting", "room", "shop"))
                  .isEqualTo((double) waiting);
              assertThat(scrape.sum("anteroom_queue_running", "room", "shop"))
                  .isEqualTo((double) running);
            });
  }

  /** The series of Anteroom's own metrics. */
  static Set<Scrape.Series> anteroomSeries(Scrape scrape) {
    Set<Scrape.Series> series = new HashSet<>();
    for (Scrape.Series s : scrape.samples().keySet()) {
      if (s.name().startsWith("anteroom_")) {
        series.add(s);
      }
    }
    return series;
  }

  /** Whether a label value is one of the made-up item ids. */
  static boolean isItem(String value) {
    return value.length() == 10
        && value.startsWith("100000")
        && value.chars().allMatch(Character::isDigit);
  }

  static Set<String> labelValues(Scrape scrape) {
    Set<String> values = new TreeSet<>();
    scrape.samples().keySet().forEach(s -> values.addAll(s.labels().values()));
    return values;
  }
}
