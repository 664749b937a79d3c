package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A WireMock origin behind the gateway under test, on a free loopback port, that answers every path
 * with a small product page until a test stubs otherwise.
 *
 * <pre>{@code
 * @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
 * }</pre>
 *
 * <p>On a static field, one origin serves the whole test class: started before all tests, stopped
 * after them; stubs and recorded requests carry over from test to test, as WireMock keeps them. On
 * an instance field, each test gets its own origin. A {@link GatewayIntegrationTest} points the
 * gateway at it.
 */
public final class WireMockOrigin extends WireMockServer
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {

  // Counts the test classes, outer and nested, whose BeforeAll ran; zero means a per-test origin.
  private int classScopes;

  public WireMockOrigin() {
    super(options().dynamicPort().bindAddress("127.0.0.1"));
  }

  /** The address the gateway forwards to, {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (classScopes++ == 0) {
      startWithProductPage();
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (classScopes == 0) {
      startWithProductPage();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (classScopes == 0) {
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (--classScopes == 0) {
      stop();
    }
  }

  private void startWithProductPage() {
    start();
    stubFor(
        any(urlPathMatching("/.*"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/html")
                    .withBody("<h1>Product page</h1>")));
  }
}
