package io.anteroom.gateway.origin;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.http.Fault;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What a visitor gets when the origin does not answer, and what a request the origin would drop
 * gets: never a 500; and a request that never finishes arriving holds no connection. The shop's
 * product route (queue off) to a WireMock origin.
 */
// The shipped idle timeout is 60 s; a short one shows what it does to half a request.
@GatewayIntegrationTest(properties = "server.netty.idle-timeout=2s")
class OriginFailuresIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;

  @BeforeAll
  static void faults() {
    origin.stubFor(
        get(urlPathEqualTo("/products/21"))
            .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    origin.stubFor(
        get(urlPathEqualTo("/products/22"))
            .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));
  }

  HttpResponse<String> withHeaderLines(String path, int lines) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i < lines; i++) {
      request.header(i % 2 == 0 ? "X-Extra-" + i : "X-Same", "v" + i);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anOriginThatResetsTheConnectionIsAnswered502() {
    var answer = new Visitor(port).page("/products/21");

    assertThat(answer.statusCode()).isEqualTo(502);
    assertThat(answer.body()).contains("origin-unreachable");
  }

  @Test
  void anOriginThatClosesWithoutAnAnswerIsAnswered502() {
    assertThat(new Visitor(port).page("/products/22").statusCode()).isEqualTo(502);
  }

  @Test
  void aRequestWithMoreHeaderLinesThanTheLimitIsRefusedAndNeverReachesTheOrigin() throws Exception {
    // The client adds a few of its own (Host, Connection, User-Agent …): well below 100 in all.
    HttpResponse<String> fewer = withHeaderLines("/products/23", 90);
    HttpResponse<String> more = withHeaderLines("/products/24", 101);

    assertThat(fewer.statusCode()).isEqualTo(200);
    assertThat(more.statusCode()).isEqualTo(431);
    assertThat(more.body()).contains("too-many-headers");
    origin.verify(0, getRequestedFor(urlPathEqualTo("/products/24")));
  }

  @Test
  void aRequestThatNeverFinishesArrivingHoldsItsConnectionOnlyUntilTheIdleTimeout()
      throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(20_000);
      socket
          .getOutputStream()
          .write("GET /products/25 HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();

      // Without the idle timeout the read outlasts the socket's own 20 s and throws.
      int read = socket.getInputStream().read();

      assertThat(read).as("closed by the gateway, nothing answered").isEqualTo(-1);
    }
    origin.verify(0, getRequestedFor(urlPathEqualTo("/products/25")));
  }
}
