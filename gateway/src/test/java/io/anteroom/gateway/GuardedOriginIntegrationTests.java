package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.anteroom.guard.GuardSettings;
import io.anteroom.guard.PassGuard;
import io.anteroom.guard.PassVerifier;
import io.anteroom.guard.Verdict;
import io.anteroom.testing.redis.RedisServerExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An origin that checks passes itself with the origin guard, behind a gateway that signs passes
 * with Ed25519 and forwards them in {@code Anteroom-Pass}: through the gateway a product page
 * opens; straight to the origin, around the line, it is refused, and a real pass for another
 * product does not open it either.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.forward-pass-header=Anteroom-Pass",
      "anteroom.tokens.pass-signing=ed25519",
      "anteroom.tokens.pass-keys.p2=" + JwksIntegrationTests.P2_JWK
    })
class GuardedOriginIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final GuardedOrigin origin = GuardedOrigin.start();

  @DynamicPropertySource
  static void origin(DynamicPropertyRegistry registry) {
    registry.add("ANTEROOM_ORIGIN", origin::url);
  }

  @AfterAll
  static void stopOrigin() {
    origin.server.stop(0);
  }

  @LocalServerPort int port;

  @BeforeEach
  void guardWithTheGatewaysKeys() {
    origin.guard =
        new PassGuard(
            PassVerifier.builder()
                .jwksUrl(URI.create("http://127.0.0.1:" + port + "/_anteroom/jwks.json"))
                .build(),
            GuardSettings.forbidding("shop", List.of("/products/{id}", "/products/{id}/**")));
  }

  @Test
  void throughTheGatewayAProductPageOpensAndStraightToTheOriginItIsRefused() throws Exception {
    Visitor visitor = new Visitor(port);

    HttpResponse<String> through = visitor.page("/products/2");
    assertThat(through.statusCode()).isEqualTo(200);
    assertThat(through.body()).isEqualTo("Product page 2");

    HttpResponse<String> around = direct("/products/2", null);
    assertThat(around.statusCode()).isEqualTo(403);
    assertThat(around.body()).contains("missing");

    String pass = visitor.cookie("anteroom_pass_shop");
    assertThat(direct("/products/3", pass).body()).contains("wrong_item");
    assertThat(direct("/products/2", pass).statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> direct(String path, String pass) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin.url() + path));
    if (pass != null) {
      request.header("Anteroom-Pass", pass);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A JDK HttpServer origin whose product pages need a pass the guard accepts. */
  static final class GuardedOrigin {
    final HttpServer server;
    volatile PassGuard guard;

    private GuardedOrigin(HttpServer server) {
      this.server = server;
    }

    static GuardedOrigin start() {
      try {
        HttpServer server =
            HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        GuardedOrigin origin = new GuardedOrigin(server);
        server.createContext("/", origin::answer);
        server.start();
        return origin;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static String lastSegment(String path) {
      return path.substring(path.lastIndexOf('/') + 1);
    }

    private void answer(HttpExchange exchange) throws IOException {
      try (exchange) {
        Verdict verdict = guard.decide(new Request(exchange));
        String body =
            verdict.allowed()
                ? "Product page " + lastSegment(exchange.getRequestURI().getPath())
                : verdict.body();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(verdict.allowed() ? 200 : verdict.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  private record Request(HttpExchange exchange) implements PassGuard.Request {
    @Override
    public String path() {
      return exchange.getRequestURI().getRawPath();
    }

    @Override
    public String pathAndQuery() {
      return exchange.getRequestURI().getRawPath();
    }

    @Override
    public String header(String name) {
      return exchange.getRequestHeaders().getFirst(name);
    }

    @Override
    public String cookie(String name) {
      return null;
    }
  }
}
