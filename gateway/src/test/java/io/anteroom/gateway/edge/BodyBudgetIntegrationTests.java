package io.anteroom.gateway.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The bodies the gateway holds while they arrive have one budget, all requests together (here 1
 * KB): a body that would take it past is answered 503 at once and never forwarded, so many large
 * bodies held open cannot use up the gateway's memory; a body gives its bytes back once its request
 * is answered. Item 31's buy route (queue off) to a WireMock origin.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.max-request-body=1KB",
      "anteroom.gateway.request-bodies-held=1KB",
      "anteroom.gateway.request-body-timeout=10s"
    })
class BodyBudgetIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired MeterRegistry meters;

  @BeforeAll
  static void buy() {
    origin.stubFor(
        post(urlPathMatching("/products/3[0-9]/buy")).willReturn(aResponse().withStatus(200)));
  }

  static String buyWith(int item, int length) {
    return "POST /products/"
        + item
        + "/buy HTTP/1.1\r\nHost: shop\r\nContent-Type: text/plain\r\n"
        + "Content-Length: "
        + length
        + "\r\n\r\n";
  }

  static int status(Socket socket) throws Exception {
    String line =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    return Integer.parseInt(line.split(" ")[1]);
  }

  double heldBytes() {
    return meters.get(BodyBuffer.HELD).gauge().value();
  }

  double refused() {
    return meters.counter(BodyBuffer.REFUSED, "reason", "no-room").count();
  }

  @Test
  void aBodyBeyondWhatIsHeldIsAnswered503UntilTheHeldOneIsForwarded() throws Exception {
    try (Socket held = new Socket("127.0.0.1", port);
        Socket second = new Socket("127.0.0.1", port);
        Socket third = new Socket("127.0.0.1", port)) {
      held.setSoTimeout(15_000);
      second.setSoTimeout(15_000);
      third.setSoTimeout(15_000);
      OutputStream first = held.getOutputStream();
      first.write((buyWith(34, 800) + "a".repeat(700)).getBytes(StandardCharsets.US_ASCII));
      first.flush();
      await().atMost(Duration.ofSeconds(5)).until(() -> heldBytes() == 700);

      second
          .getOutputStream()
          .write((buyWith(35, 600) + "b".repeat(600)).getBytes(StandardCharsets.US_ASCII));
      second.getOutputStream().flush();
      int secondStatus = status(second);
      await().atMost(Duration.ofSeconds(5)).until(() -> heldBytes() == 700);

      first.write("a".repeat(100).getBytes(StandardCharsets.US_ASCII));
      first.flush();
      int heldStatus = status(held);
      await().atMost(Duration.ofSeconds(5)).until(() -> heldBytes() == 0);
      third
          .getOutputStream()
          .write((buyWith(36, 600) + "c".repeat(600)).getBytes(StandardCharsets.US_ASCII));
      third.getOutputStream().flush();
      int thirdStatus = status(third);

      assertThat(new int[] {secondStatus, heldStatus, thirdStatus}).containsExactly(503, 200, 200);
      assertThat(refused()).isOne();
    }
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> meters.get(BodyBuffer.HELD).gauge().value() == 0);
    assertThat(origin.findAll(postRequestedFor(urlPathEqualTo("/products/35/buy")))).isEmpty();
    assertThat(origin.findAll(postRequestedFor(urlPathEqualTo("/products/34/buy")))).hasSize(1);
  }
}
