package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.testing.redis.RedisServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The real parts an end-to-end gateway test runs against: Redis, a WireMock origin, a key.
 *
 * <p>Each test class declares its own Redis extension, origin and {@code @DynamicPropertySource} on
 * purpose: Spring caches application contexts by their configuration, and a shared declaration
 * would let a later class reuse a context wired to an earlier class's (by then stopped) Redis.
 */
public final class GatewayTestSetup {

  /** A fixed signing key (bytes 0 to 31), so tests can verify passes the origin received. */
  public static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

  private GatewayTestSetup() {}

  /** A WireMock origin that answers every path with a small product page. */
  public static WireMockServer origin() {
    WireMockServer origin = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
    origin.start();
    origin.stubFor(
        any(urlPathMatching("/.*"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/html")
                    .withBody("<h1>Product page</h1>")));
    return origin;
  }

  /** Points the gateway at the test Redis and origin, with the shipped config/anteroom.yml. */
  public static void properties(
      DynamicPropertyRegistry registry, RedisServerExtension redis, WireMockServer origin) {
    registry.add("anteroom.redis.uri", redis::uri);
    registry.add("ANTEROOM_ORIGIN", () -> "http://127.0.0.1:" + origin.port());
  }

  /**
   * A free loopback port. The management port is fixed this way, as in production: Spring Cloud
   * Gateway keeps its routes off the management port by comparing with the configured number, which
   * {@code 0} would defeat.
   */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Properties every gateway test uses. */
  public static final String CONFIG = "ANTEROOM_CONFIG=../config/anteroom.yml";

  public static final String KEYS = "anteroom.tokens.keys.main=" + KEY;
}
