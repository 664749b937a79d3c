package io.anteroom.gateway.monitoring;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.admin.AdminClient;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway and the worker as they ship, side by side on one Redis, scraped for real: the gauges
 * equal the sets in Redis, the counters equal what the test did, and every metric the Grafana
 * dashboard and the Prometheus alert rules query exists.
 */
@GatewayIntegrationTest(
    properties = {"anteroom.admin.token=" + MonitoringIntegrationTests.TOKEN},
    fixedManagementPort = true)
@AutoConfigureMetrics
class MonitoringIntegrationTests {

  static final String TOKEN = "monitoring-test-token-0123456789";
  static final Path DASHBOARD = Path.of("../deploy/grafana/dashboards/anteroom.json");
  static final Path ALERTS = Path.of("../deploy/prometheus/alerts.yml");
  static final Pattern METRIC = Pattern.compile("\\b(?:anteroom|lettuce|resilience4j)_[a-z0-9_]+");

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static WorkerApp worker;

  @BeforeAll
  static void start() {
    origin.stubFor(
        get(urlPathEqualTo("/products/77/checkout"))
            .willReturn(aResponse().withStatus(200).withHeader("Anteroom-Release", "true")));
    worker = new WorkerApp(redis.uri(), "100ms");
  }

  @AfterAll
  static void stop() {
    worker.close();
  }

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired SettingsStore settings;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror activeMirror;
  @Autowired RoomPolicyMirror policyMirror;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "77");

  @Test
  void gaugesEqualTheSetsInRedisAndCountersEqualTheEventsCaused() throws Exception {
    setMode(Mode.PAUSED);
    active.activate(queue, Activation.MANUAL).block();
    await().until(() -> activeMirror.isActive(queue));
    Scrape gatewayBefore = Scrape.of(managementPort);
    Scrape workerBefore = Scrape.of(worker.port());

    List<Visitor> line = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Visitor visitor = new Visitor(port);
      assertThat(Visitor.text(visitor.json("/products/77").body(), "state")).isEqualTo("paused");
      line.add(visitor);
    }
    String lastInLine = subject(line.get(11).cookie("anteroom_ticket_shop"));

    settings.remove("shop", queue.item(), List.of("mode")).block();
    settings.put("shop", queue.item(), Map.of("admit-per-second", "1000")).block();
    await().atMost(10, TimeUnit.SECONDS).until(() -> redis().zcard(keys.running(queue)) == 12);

    for (Visitor visitor : line.subList(0, 6)) {
      String status = visitor.json("/_anteroom/status?room=shop").body();
      assertThat(Visitor.text(status, "state")).isEqualTo("admitted");
    }
    for (Visitor visitor : line.subList(0, 3)) {
      assertThat(visitor.page("/products/77").statusCode()).isEqualTo(200);
    }
    assertThat(line.get(0).page("/products/77/checkout").statusCode()).isEqualTo(200);
    assertThat(
            new AdminClient(managementPort, TOKEN)
                .post(
                    "/admin/api/rooms/shop/queues/77/release",
                    "{\"visitor\":\"" + lastInLine + "\"}")
                .statusCode())
        .isEqualTo(200);

    setMode(Mode.PAUSED);
    for (int i = 0; i < 5; i++) {
      assertThat(Visitor.text(new Visitor(port).json("/products/77").body(), "state"))
          .isEqualTo("paused");
    }

    assertThat(redis().zcard(keys.waiting(queue))).isEqualTo(5);
    assertThat(redis().zcard(keys.running(queue))).isEqualTo(10);
    assertThat(redis().zcard(keys.finished(queue))).isEqualTo(2);
    await()
        .atMost(10, TimeUnit.SECONDS)
        .untilAsserted(
            () -> {
              Scrape scrape = Scrape.of(worker.port());
              for (String set : List.of("waiting", "running", "finished")) {
                double inRedis = redis().zcard(key(set));
                assertThat(scrape.sum("anteroom_queue_" + set, "room", "shop", "queue", "77"))
                    .as(set)
                    .isEqualTo(inRedis);
                assertThat(scrape.sum("anteroom_queue_" + set, "room", "shop"))
                    .as(set + " of the room")
                    .isEqualTo(inRedis);
              }
            });

    Scrape gatewayAfter = Scrape.of(managementPort);
    Scrape workerAfter = Scrape.of(worker.port());
    Map<String, String> state = redis().hgetall(keys.state(queue));
    assertThat(delta(gatewayBefore, gatewayAfter, "anteroom_gateway_enqueued_total"))
        .isEqualTo(17)
        .isEqualTo(Double.parseDouble(state.get("seq")));
    assertThat(delta(gatewayBefore, gatewayAfter, "anteroom_gateway_admitted_total")).isZero();
    assertThat(
            delta(
                gatewayBefore,
                gatewayAfter,
                "anteroom_gateway_requests_total",
                "decision",
                "queued"))
        .isEqualTo(17);
    assertThat(
            delta(
                gatewayBefore,
                gatewayAfter,
                "anteroom_gateway_requests_total",
                "decision",
                "passed"))
        .isEqualTo(4);
    assertThat(delta(gatewayBefore, gatewayAfter, "anteroom_queue_wait_seconds_count"))
        .isEqualTo(6);
    assertThat(
            delta(gatewayBefore, gatewayAfter, "anteroom_gateway_released_total", "by", "origin"))
        .isEqualTo(1);
    assertThat(delta(gatewayBefore, gatewayAfter, "anteroom_gateway_released_total", "by", "admin"))
        .isEqualTo(1);
    assertThat(delta(workerBefore, workerAfter, "anteroom_worker_admitted_total"))
        .isEqualTo(12)
        .isEqualTo(Double.parseDouble(state.get("admitted")));
  }

  @Test
  void everyMetricTheDashboardQueriesIsInARealScrapeOfTheGatewayOrTheWorker() throws IOException {
    List<String> expressions = new ArrayList<>();
    panels(JsonMapper.builder().build().readTree(Files.readString(DASHBOARD)), expressions);
    Set<String> queried = metricsIn(expressions);

    assertThat(expressions).hasSizeGreaterThanOrEqualTo(10);
    assertThat(queried).hasSizeGreaterThanOrEqualTo(10);
    assertThat(scraped()).containsAll(queried);
  }

  @Test
  void everyMetricTheAlertRulesQueryIsInARealScrapeOfTheGatewayOrTheWorker() throws IOException {
    List<String> expressions = new ArrayList<>();
    Map<String, Object> file = new Yaml().load(Files.readString(ALERTS));
    for (Object group : (List<?>) file.get("groups")) {
      for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
        expressions.add((String) ((Map<?, ?>) rule).get("expr"));
      }
    }
    Set<String> queried = metricsIn(expressions);

    assertThat(expressions).hasSizeGreaterThanOrEqualTo(5);
    assertThat(queried).contains("anteroom_gateway_failure_policy_open");
    assertThat(scraped()).containsAll(queried);
  }

  /** The metric names in a real scrape of the gateway and of the worker. */
  Set<String> scraped() {
    new Visitor(port).page("/products/900");
    await()
        .atMost(10, TimeUnit.SECONDS)
        .untilAsserted(
            () -> assertThat(Scrape.of(worker.port()).names()).contains("anteroom_queue_waiting"));
    Set<String> scraped = new HashSet<>(Scrape.of(managementPort).names());
    scraped.addAll(Scrape.of(worker.port()).names());
    return scraped;
  }

  static Set<String> metricsIn(List<String> expressions) {
    Set<String> queried = new TreeSet<>();
    for (String expression : expressions) {
      Matcher m = METRIC.matcher(expression);
      while (m.find()) {
        queried.add(m.group());
      }
    }
    return queried;
  }

  /** Every target expression of every panel, rows included. */
  static void panels(JsonNode node, List<String> expressions) {
    for (JsonNode panel : node.path("panels")) {
      assertThat(panel.path("title").asString()).as("panel title").isNotBlank();
      for (JsonNode target : panel.path("targets")) {
        expressions.add(target.path("expr").asString());
      }
      panels(panel, expressions);
    }
  }

  void setMode(Mode mode) {
    settings.put("shop", queue.item(), Map.of("mode", mode.value())).block();
    policyMirror.refresh().block();
    assertThat(policyMirror.policy(queue).mode()).isEqualTo(mode);
  }

  RedisCommands<String, String> redis() {
    return worker.redis();
  }

  String key(String set) {
    return switch (set) {
      case "waiting" -> keys.waiting(queue);
      case "running" -> keys.running(queue);
      default -> keys.finished(queue);
    };
  }

  static double delta(Scrape before, Scrape after, String name, String... labels) {
    String[] withRoom = new String[labels.length + 2];
    withRoom[0] = "room";
    withRoom[1] = "shop";
    System.arraycopy(labels, 0, withRoom, 2, labels.length);
    return after.sum(name, withRoom) - before.sum(name, withRoom);
  }

  /** The {@code sub} of a token, read without checking it (the test issued it). */
  static String subject(String token) {
    String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    Matcher m = Pattern.compile("\"sub\":\"([^\"]+)\"").matcher(payload);
    assertThat(m.find()).as("sub in " + payload).isTrue();
    return m.group(1);
  }
}
