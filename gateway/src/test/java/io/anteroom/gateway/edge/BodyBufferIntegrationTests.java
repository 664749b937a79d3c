package io.anteroom.gateway.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.SlowBody;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The gateway reads a request's body in whole before the origin sees it: a body sent slowly costs
 * the origin nothing, one that never finishes or is too large never reaches it. Item 31's buy route
 * (queue off, so anyone is let in) to a WireMock origin; bodies of 1 KB at most, within 1 s.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.max-request-body=1KB",
      "anteroom.gateway.request-body-timeout=1s"
    })
class BodyBufferIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;

  @BeforeAll
  static void buy() {
    origin.stubFor(
        post(urlPathMatching("/products/3[0-9]/buy")).willReturn(aResponse().withStatus(200)));
  }

  /** Sends {@code head} and then each of {@code parts}, {@code pauseMillis} apart; the status. */
  int send(String head, int pauseMillis, String... parts) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (String part : parts) {
        Thread.sleep(pauseMillis);
        out.write(part.getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      return SlowBody.status(socket);
    }
  }

  static String buyWith(int item, int length) {
    return "POST /products/"
        + item
        + "/buy HTTP/1.1\r\nHost: shop\r\nContent-Type: text/plain\r\n"
        + "Content-Length: "
        + length
        + "\r\n\r\n";
  }

  List<LoggedRequest> bought(int item) {
    return origin.findAll(postRequestedFor(urlPathEqualTo("/products/" + item + "/buy")));
  }

  @Test
  void aBodyThatNeverFinishesArrivingIsAnswered408AndNeverReachesTheOrigin() throws Exception {
    assertThat(send(buyWith(31, 100), 0, "ab")).isEqualTo(408);

    assertThat(bought(31)).isEmpty();
  }

  @Test
  void aBodyLargerThanTheLimitIsAnswered413AndNeverReachesTheOrigin() throws Exception {
    String large = "x".repeat(2048);
    String chunked =
        "POST /products/32/buy HTTP/1.1\r\nHost: shop\r\nTransfer-Encoding: chunked\r\n\r\n"
            + Integer.toHexString(large.length())
            + "\r\n"
            + large
            + "\r\n0\r\n\r\n";

    assertThat(send(buyWith(32, large.length()) + large, 0)).as("by its length").isEqualTo(413);
    assertThat(send(chunked, 0)).as("chunked, by what arrived").isEqualTo(413);
    assertThat(bought(32)).isEmpty();
  }

  @Test
  void aSlowBodyThatArrivesInTimeReachesTheOriginWhole() throws Exception {
    assertThat(send(buyWith(33, 16), 300, "first-ha", "lf-done!")).isEqualTo(200);

    assertThat(bought(33)).hasSize(1);
    assertThat(bought(33).get(0).getBodyAsString()).isEqualTo("first-half-done!");
  }
}
