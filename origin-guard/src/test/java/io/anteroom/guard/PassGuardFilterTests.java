package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static io.anteroom.guard.TestPasses.pass;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.Cookie;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class PassGuardFilterTests {

  private static final List<String> PATHS = List.of("/products/{id}", "/products/{id}/**");

  private final TestPasses.Key key = TestPasses.ed25519("k1");
  private final PassVerifier verifier = PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build();

  @Test
  void aProductPageWithoutAPassIsForbiddenNamingTheReason() throws Exception {
    MockHttpServletResponse response = run(forbidding(), get("/products/7"));

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains("missing");
    assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
  }

  @Test
  void aProductPageWithAPassForItReachesTheApplicationWithTheCheck() throws Exception {
    MockHttpServletRequest request = get("/products/7/buy");
    request.addHeader("Anteroom-Pass", pass(key, Instant.now(), "7"));
    MockFilterChain chain = new MockFilterChain();

    new PassGuardFilter(new PassGuard(verifier, forbidding()))
        .doFilter(request, new MockHttpServletResponse(), chain);

    assertThat(chain.getRequest()).isSameAs(request);
    assertThat(((PassCheck) request.getAttribute(PassGuard.CHECK_ATTRIBUTE)).item()).isEqualTo("7");
  }

  @Test
  void aPassForAnotherItemIsForbidden() throws Exception {
    MockHttpServletRequest request = get("/products/7");
    request.addHeader("Anteroom-Pass", pass(key, Instant.now(), "8"));

    MockHttpServletResponse response = run(forbidding(), request);

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains("wrong_item");
  }

  @Test
  void pathsNotGuardedPassWithoutAPass() throws Exception {
    MockFilterChain chain = new MockFilterChain();

    new PassGuardFilter(new PassGuard(verifier, forbidding()))
        .doFilter(get("/"), new MockHttpServletResponse(), chain);

    assertThat(chain.getRequest()).isNotNull();
  }

  @Test
  void aProductPageSpelledOtherwiseIsForbiddenBelowTheContextPath() throws Exception {
    MockHttpServletRequest request = get("/shop/%70roducts;a=b/7");
    request.setContextPath("/shop");

    MockHttpServletResponse response = run(forbidding(), request);

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains("missing");
  }

  @Test
  void anAmbiguousPathIsABadRequestNamingTheReason() throws Exception {
    MockHttpServletRequest request = get("/products/%2e%2e/7");
    request.addHeader("Anteroom-Pass", pass(key, Instant.now(), "7"));

    MockHttpServletResponse response = run(forbidding(), request);

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(response.getContentAsString())
        .isEqualTo("Bad Request: ambiguous path (dot_segment)\n");
    assertThat(response.getHeader("Cache-Control")).isEqualTo("no-store");
  }

  @Test
  void withRedirectAVisitorWithoutAPassIsSentToTheSamePathAtTheGateway() throws Exception {
    MockHttpServletRequest request = get("/products/7");
    request.setQueryString("colour=red");

    MockHttpServletResponse response = run(redirecting(), request);

    assertThat(response.getStatus()).isEqualTo(303);
    assertThat(response.getHeader("Location"))
        .isEqualTo("https://shop.example/products/7?colour=red");
  }

  @Test
  void withRedirectARefusedPassIsForbiddenRatherThanSentRound() throws Exception {
    MockHttpServletRequest request = get("/products/7");
    request.addHeader("Anteroom-Pass", pass(TestPasses.ed25519("k1"), Instant.now(), "7"));

    MockHttpServletResponse response = run(redirecting(), request);

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains("signature");
  }

  @Test
  void thePassCookieIsReadWhenConfiguredAndTheHeaderIsAbsent() throws Exception {
    GuardSettings cookie =
        new GuardSettings(
            ROOM, PATHS, null, "Anteroom-Pass", "anteroom_pass_shop", OnRefusal.FORBIDDEN, null);
    MockHttpServletRequest request = get("/products/7");
    request.setCookies(new Cookie("anteroom_pass_shop", pass(key, Instant.now(), "7")));
    MockFilterChain chain = new MockFilterChain();

    new PassGuardFilter(new PassGuard(verifier, cookie))
        .doFilter(request, new MockHttpServletResponse(), chain);

    assertThat(chain.getRequest()).isSameAs(request);
  }

  private MockHttpServletResponse run(GuardSettings settings, MockHttpServletRequest request)
      throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();
    MockFilterChain chain = new MockFilterChain();
    new PassGuardFilter(new PassGuard(verifier, settings)).doFilter(request, response, chain);
    assertThat(chain.getRequest()).isNull();
    return response;
  }

  private static MockHttpServletRequest get(String path) {
    return new MockHttpServletRequest("GET", path);
  }

  private static GuardSettings forbidding() {
    return GuardSettings.forbidding(ROOM, PATHS);
  }

  private static GuardSettings redirecting() {
    return new GuardSettings(
        ROOM,
        PATHS,
        null,
        "Anteroom-Pass",
        null,
        OnRefusal.REDIRECT,
        URI.create("https://shop.example/"));
  }
}
