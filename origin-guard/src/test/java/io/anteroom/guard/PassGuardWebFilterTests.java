package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static io.anteroom.guard.TestPasses.pass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

class PassGuardWebFilterTests {

  private static final List<String> PATHS = List.of("/products/{id}", "/products/{id}/**");

  private final TestPasses.Key key = TestPasses.es256("k1");
  private final PassVerifier verifier = PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build();

  @Test
  void aProductPageWithoutAPassIsForbiddenNamingTheReason() {
    client(GuardSettings.forbidding(ROOM, PATHS))
        .get()
        .uri("/products/7")
        .exchange()
        .expectStatus()
        .isForbidden()
        .expectBody(String.class)
        .isEqualTo("Forbidden: no valid Anteroom pass (missing)\n");
  }

  @Test
  void aProductPageWithAPassForItReachesTheApplication() {
    client(GuardSettings.forbidding(ROOM, PATHS))
        .get()
        .uri("/products/7")
        .header("Anteroom-Pass", pass(key, Instant.now(), "7"))
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(String.class)
        .isEqualTo("product 7 for " + TestPasses.VISITOR);
  }

  @Test
  void anExpiredPassIsForbidden() {
    client(GuardSettings.forbidding(ROOM, PATHS))
        .get()
        .uri("/products/7")
        .header("Anteroom-Pass", pass(key, Instant.now().minusSeconds(3600), "7"))
        .exchange()
        .expectStatus()
        .isForbidden()
        .expectBody(String.class)
        .value(body -> assertThat(body).contains("expired"));
  }

  @Test
  void withRedirectAVisitorWithoutAPassIsSentToTheSamePathAtTheGateway() {
    GuardSettings redirect =
        new GuardSettings(
            ROOM,
            PATHS,
            null,
            "Anteroom-Pass",
            null,
            OnRefusal.REDIRECT,
            URI.create("https://shop.example"));

    client(redirect)
        .get()
        .uri("/products/7?colour=red")
        .exchange()
        .expectStatus()
        .isSeeOther()
        .expectHeader()
        .location("https://shop.example/products/7?colour=red");
  }

  @Test
  void anAmbiguousPathIsABadRequestNamingTheReason() {
    client(GuardSettings.forbidding(ROOM, PATHS))
        .get()
        .uri(URI.create("/products%2F7"))
        .header("Anteroom-Pass", pass(key, Instant.now(), "7"))
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody(String.class)
        .isEqualTo("Bad Request: ambiguous path (encoding)\n");
  }

  @Test
  void pathsNotGuardedPassWithoutAPass() {
    client(GuardSettings.forbidding(ROOM, PATHS)).get().uri("/").exchange().expectStatus().isOk();
  }

  private WebTestClient client(GuardSettings settings) {
    return WebTestClient.bindToRouterFunction(
            RouterFunctions.route(
                    GET("/products/{id}"),
                    request ->
                        ServerResponse.ok()
                            .bodyValue(
                                "product "
                                    + request.pathVariable("id")
                                    + " for "
                                    + request
                                        .attribute(PassGuard.CHECK_ATTRIBUTE)
                                        .map(check -> ((PassCheck) check).visitor())
                                        .orElse("nobody")))
                .andRoute(GET("/"), request -> ServerResponse.ok().bodyValue("home")))
        .webFilter(new PassGuardWebFilter(new PassGuard(verifier, settings)))
        .build();
  }
}
