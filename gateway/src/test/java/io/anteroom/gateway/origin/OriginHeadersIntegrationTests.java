package io.anteroom.gateway.origin;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.context.ApplicationContext;

/**
 * What a visitor's request carries to the origin through the gateway as it ships ({@link
 * OriginHeadersTests}: the same as with the framework's own header filters). Forwarded headers a
 * client writes itself, hop-by-hop headers and those {@code Connection} names never reach the
 * origin; every other header does, as sent. Sent byte for byte over a socket, since an HTTP client
 * library would refuse or rewrite some of these headers.
 */
@GatewayIntegrationTest
class OriginHeadersIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final String REQUEST =
      "GET /about HTTP/1.1\r\n"
          + "Host: 127.0.0.1\r\n"
          + "Accept: text/html\r\n"
          + "X-Kept: 1\r\n"
          + "X-Kept: 2\r\n"
          + "Forwarded: for=203.0.113.9\r\n"
          + "X-Forwarded-For: 203.0.113.9\r\n"
          + "X-Forwarded-Host: shop.example\r\n"
          + "Keep-Alive: timeout=5\r\n"
          + "Proxy-Authorization: Basic Zm9vOmJhcg==\r\n"
          + "X-Named-Hop: dropped\r\n"
          + "Connection: close, X-Named-Hop\r\n"
          + "\r\n";

  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  @Test
  void theOriginGetsTheVisitorsHeadersLessForwardedAndHopByHopOnes() {
    assertOriginSawOnlyWhatItShould(origin, port);
  }

  @Test
  void oneCopyPerDirectionReplacesTheFrameworksCopyingFilters() {
    assertThat(context.getBeansOfType(HttpHeadersFilter.class).values())
        .hasAtLeastOneElementOfType(OriginHeaders.class)
        .noneMatch(filter -> filter.getClass().getSimpleName().startsWith("Remove"))
        .noneMatch(filter -> filter.getClass().getSimpleName().equals("GRPCRequestHeadersFilter"));
  }

  private static void assertOriginSawOnlyWhatItShould(WireMockOrigin origin, int port) {
    origin.resetRequests();

    String answer = send(port, REQUEST);

    assertThat(answer).startsWith("HTTP/1.1 200");
    List<LoggedRequest> seen = origin.findAll(anyRequestedFor(anyUrl()));
    assertThat(seen).hasSize(1);
    LoggedRequest request = seen.get(0);
    assertThat(request.getHeaders().getHeader("X-Kept").values()).containsExactly("1", "2");
    assertThat(request.getHeader("Accept")).isEqualTo("text/html");
    for (String dropped :
        List.of(
            "Forwarded",
            "X-Forwarded-For",
            "X-Forwarded-Host",
            "Keep-Alive",
            "Proxy-Authorization",
            "X-Named-Hop")) {
      assertThat(request.containsHeader(dropped)).as(dropped).isFalse();
    }
  }

  private static String send(int port, String request) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
