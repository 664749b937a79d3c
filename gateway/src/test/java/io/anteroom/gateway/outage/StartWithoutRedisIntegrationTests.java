package io.anteroom.gateway.outage;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.monitoring.WorkerApp;
import io.anteroom.testing.FreePorts;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateway and the worker start while Redis cannot be reached, answer by the failure policy
 * meanwhile, and work normally once Redis starts, without a restart.
 */
@SystemTest
class StartWithoutRedisIntegrationTests {

  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @Test
  void gatewayAndWorkerStartWithoutRedisThenHealWhenItStarts() throws Exception {
    int redisPort = FreePorts.pick();
    String uri = "redis://127.0.0.1:" + redisPort;
    try (GatewayApp gateway =
            new GatewayApp(uri, origin, "--anteroom.gateway.activate-on-start=shop:1");
        WorkerApp worker = new WorkerApp(uri, "100ms")) {
      int port = gateway.port();

      HttpResponse<String> json = new Visitor(port).json("/products/1");
      assertThat(json.statusCode()).isEqualTo(503);
      assertThat(json.headers().firstValue("Retry-After")).hasValue("5");
      assertThat(Visitor.text(json.body(), "state")).isEqualTo("unavailable");
      HttpResponse<String> page = new Visitor(port).page("/products/2");
      assertThat(page.statusCode()).isEqualTo(503);
      assertThat(page.headers().firstValue("Retry-After")).hasValue("5");
      assertThat(page.body()).contains("Temporarily unavailable");
      assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/1")))).isEmpty();
      assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/2")))).isEmpty();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(failedTicks(worker.port())).isPositive());

      try (RedisServer redis = RedisServer.builder().port(redisPort).start()) {
        await()
            .atMost(Duration.ofSeconds(15))
            .pollInterval(Duration.ofMillis(200))
            .untilAsserted(
                () ->
                    assertThat(Visitor.text(new Visitor(port).json("/products/9").body(), "state"))
                        .as("a queue that is off lets people in again")
                        .isNull());
        Visitor.lineUpSomeone(port, "/products/1");
        Visitor waiter = new Visitor(port);
        assertThat(Visitor.text(waiter.json("/products/1").body(), "state"))
            .as("activate-on-start turned the queue on once Redis was reached")
            .isEqualTo("waiting");
        await()
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(250))
            .untilAsserted(
                () ->
                    assertThat(
                            Visitor.text(
                                waiter.json("/_anteroom/status?room=shop").body(), "state"))
                        .as("the worker admits")
                        .isEqualTo("admitted"));
        assertThat(waiter.page("/products/1").body()).contains("Product page");
      }
    }
  }

  private static double failedTicks(int port) throws Exception {
    HttpResponse<String> scrape =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher m =
        Pattern.compile("(?m)^anteroom_worker_ticks_failed_total(?:\\{[^}]*\\})? (\\S+)$")
            .matcher(scrape.body());
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }
}
