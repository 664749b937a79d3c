package io.anteroom.gateway.path;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Odd spellings of a protected path on an active queue, sent byte for byte over a socket by a
 * visitor without a pass: each gets the waiting answer or 400, never a 5xx, and the origin never
 * sees a request. The shipped routes put {@code /products/{id}} behind the room and send every
 * other path ({@code /**}) straight to the same origin, so a spelling that escaped the protected
 * route would show up in the origin's log.
 */
@GatewayIntegrationTest
class PathNormalisationIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId QUEUE = QueueId.of("shop", "31");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void queueIsOnAndItsFreeSlotTaken() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, "/products/31");
    origin.resetRequests();
  }

  static List<String> oddForms() {
    return List.of(
        "/products/31",
        "//products/31",
        "/products//31",
        "/products/31//",
        "/./products/31",
        "/products/./31",
        "/products/31/.",
        "/x/../products/31",
        "/products/x/../31",
        "/products/31/x/..",
        "/%2e/products/31",
        "/%2E%2E/products/31",
        "/x/%2e%2e/products/31",
        "/x/.%2e/products/31",
        "/products%2F31",
        "/products%2f31",
        "/x/..%2Fproducts%2F31",
        "/products%252F31",
        "/x/..%252Fproducts%252F31",
        "/x/%252e%252e/products/31",
        "/products;jsessionid=abc/31",
        "/products/31;jsessionid=abc",
        "/products/31%3Bjsessionid=abc",
        "/products/31/",
        "/PRODUCTS/31",
        "/Products/31",
        "/products/31%2F",
        "/%70roducts/31",
        "/products/%33%31",
        "/products\\31",
        "/products/31%00",
        "/products/31%",
        "/products/31%zz",
        "http://127.0.0.1/products/31",
        "http://evil.test/products/31",
        "http://evil.test//products/31",
        "HTTP://127.0.0.1/PRODUCTS/31");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oddForms")
  void oddFormOfAProtectedPathIsQueuedOrRefusedAndNeverReachesTheOrigin(String target) {
    RawResponse response = get(target);

    assertThat(response.status()).as(response.toString()).isIn(200, 400);
    if (response.status() == 200) {
      assertThat(response.body()).contains("\"state\":\"waiting\"");
    }
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).as("origin log").isEmpty();
  }

  @Test
  void normalPathsOfOtherRoutesStillReachTheOrigin() {
    for (String path : List.of("/", "/about", "/about/", "/assets/app.css", "/search?q=a%20b")) {
      assertThat(get(path).status()).as(path).isEqualTo(200);
    }
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).hasSize(5);
  }

  @Test
  void refusedPathsAreCountedByReason() {
    double before = rejected("dot_segment");

    assertThat(get("/x/../products/31").status()).isEqualTo(400);
    assertThat(rejected("dot_segment")).isEqualTo(before + 1);
    double variants = rejected("protected_variant");
    assertThat(get("/PRODUCTS/31").status()).isEqualTo(400);
    assertThat(rejected("protected_variant")).isEqualTo(variants + 1);
  }

  private double rejected(String reason) {
    var counter = meters.find("anteroom.gateway.paths.rejected").tags("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  record RawResponse(int status, String body) {}

  /** A GET of {@code target} exactly as written, over a plain socket. */
  private RawResponse get(String target) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET "
                  + target
                  + " HTTP/1.1\r\nHost: 127.0.0.1:"
                  + port
                  + "\r\nAccept: application/json\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      int status = answer.length() >= 12 ? Integer.parseInt(answer.substring(9, 12)) : -1;
      int bodyStart = answer.indexOf("\r\n\r\n");
      return new RawResponse(status, bodyStart < 0 ? "" : answer.substring(bodyStart + 4));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
