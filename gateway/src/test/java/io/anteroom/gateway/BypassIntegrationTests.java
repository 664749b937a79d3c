package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A room's bypass rules on an active queue, through the gateway: listed paths, extra extensions,
 * client networks (read from {@code X-Forwarded-For} because the test client, on loopback, is a
 * trusted proxy) and the monitoring secret let a visitor without a pass reach the origin, counted
 * as {@code bypassed}; everything else waits. The secret never reaches the origin, on any route.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.trusted-proxies=127.0.0.1",
      "anteroom.rooms.shop.bypass-paths[0]=/products/*/reviews",
      "anteroom.rooms.shop.bypass-extensions=pdf",
      "anteroom.rooms.shop.bypass-networks=192.0.2.0/24, 2001:db8::/32",
      "anteroom.rooms.shop.bypass-secret=" + BypassIntegrationTests.SECRET
    })
class BypassIntegrationTests {

  static final String SECRET = "monitor-secret-0123456789";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId QUEUE = QueueId.of("shop", "41");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void queueIsOnAndItsFreeSlotTaken() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, "/products/41");
    origin.resetRequests();
  }

  @Test
  void listedPathsAndExtensionsPassOtherPathsWait() {
    double bypassed = bypassed();

    assertThat(bodyOf(get("/products/41/reviews"))).contains("Product page");
    assertThat(bodyOf(get("/products/41/manual.pdf"))).contains("Product page");
    assertThat(bodyOf(get("/products/41/app.css"))).contains("Product page");
    assertThat(bodyOf(get("/products/41/reviews/7"))).contains("\"state\":\"waiting\"");
    assertThat(bodyOf(get("/products/41"))).contains("\"state\":\"waiting\"");
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).hasSize(3);
    assertThat(bypassed()).isEqualTo(bypassed + 3);
  }

  @Test
  void clientsFromListedNetworksPassOthersWait() {
    double bypassed = bypassed();

    assertThat(bodyOf(get("/products/41", "X-Forwarded-For", "192.0.2.10"))).contains("Product");
    assertThat(bodyOf(get("/products/41", "X-Forwarded-For", "2001:db8::10"))).contains("Product");
    assertThat(bodyOf(get("/products/41", "X-Forwarded-For", "203.0.113.10")))
        .contains("\"state\":\"waiting\"");
    // A client that writes a listed address itself: the proxy appends what it saw.
    assertThat(bodyOf(get("/products/41", "X-Forwarded-For", "192.0.2.10, 203.0.113.10")))
        .contains("\"state\":\"waiting\"");
    assertThat(bodyOf(get("/products/41", "X-Forwarded-For", "not-an-address")))
        .contains("\"state\":\"waiting\"");
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).hasSize(2);
    assertThat(bypassed()).isEqualTo(bypassed + 2);
  }

  @Test
  void theMonitoringSecretPassesAndNeverReachesTheOrigin() {
    double bypassed = bypassed();

    assertThat(bodyOf(get("/products/41", "Anteroom-Bypass", SECRET))).contains("Product page");
    assertThat(bodyOf(get("/products/41", "Anteroom-Bypass", SECRET + "x")))
        .contains("\"state\":\"waiting\"");
    assertThat(bodyOf(get("/about", "Anteroom-Bypass", SECRET))).contains("Product page");

    List<LoggedRequest> seen = origin.findAll(anyRequestedFor(anyUrl()));
    assertThat(seen).hasSize(2);
    assertThat(seen).allSatisfy(r -> assertThat(r.containsHeader("Anteroom-Bypass")).isFalse());
    assertThat(bypassed()).isEqualTo(bypassed + 1);
  }

  private double bypassed() {
    var counter =
        meters
            .find("anteroom.gateway.requests")
            .tags("room", "shop", "decision", "bypassed")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private HttpResponse<String> get(String path, String... header) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "application/json");
    if (header.length == 2) {
      request.header(header[0], header[1]);
    }
    return new Visitor(port).send(request);
  }

  private static String bodyOf(HttpResponse<String> response) {
    assertThat(response.statusCode()).as(response.body()).isLessThan(500);
    return response.body();
  }
}
