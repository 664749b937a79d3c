package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A WebFlux shop on Reactor Netty, with {@link PassGuardWebFilter} in front of its product pages:
 * no spelling of a product page reaches the product handler without a pass, and a pass for product
 * 1 opens product 1 and nothing else, however the path is spelled.
 */
class PassGuardWebFilterSpellingsIntegrationTests {

  private static final TestPasses.Key KEY = TestPasses.es256("k1");

  private static AnnotationConfigApplicationContext shop;
  private static DisposableServer server;

  @BeforeAll
  static void startShop() {
    PassGuard guard =
        new PassGuard(
            PassVerifier.builder().jwkSet(TestPasses.jwks(KEY)).build(),
            GuardSettings.forbidding(ROOM, PathSpellings.GUARDED)
                .withItems(GuardSettings.ItemFormat.INTEGER, GuardSettings.ItemCase.SENSITIVE));
    shop = new AnnotationConfigApplicationContext(Shop.class, ProductPages.class);
    HttpHandler handler =
        WebHttpHandlerBuilder.applicationContext(shop)
            .filter(new PassGuardWebFilter(guard))
            .build();
    server =
        HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle(new ReactorHttpHandlerAdapter(handler))
            .bindNow();
  }

  @AfterAll
  static void stopShop() {
    server.disposeNow();
    shop.close();
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#all")
  void withoutAPassNoSpellingReachesTheProductHandler(String target) {
    RawHttp.Response response = RawHttp.get(server.port(), target, null);

    assertThat(ProductPages.served(response)).as("%s answered %s", target, response).isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#all")
  void withAPassForProductOneNoSpellingOpensAnotherProduct(String target) {
    RawHttp.Response response =
        RawHttp.get(server.port(), target, TestPasses.pass(KEY, Instant.now(), "1"));

    if (ProductPages.served(response)) {
      assertThat(response.body()).as(target).isEqualTo("product 1");
    }
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#numberSpellingsOfOne")
  void aPassForAnotherSpellingOfTheIdDoesNotOpenTheProductItReadsAs(String id, String item) {
    String pass = TestPasses.pass(KEY, Instant.now(), item);

    RawHttp.Response response = RawHttp.get(server.port(), "/products/" + id, pass);

    assertThat(ProductPages.served(response)).as("%s answered %s", id, response).isFalse();
  }

  @Test
  void aPassForTheProductOpensItsPagesSpelledAsTheRoomReadsThem() {
    String pass = TestPasses.pass(KEY, Instant.now(), "1");

    assertThat(RawHttp.get(server.port(), "/products/1", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(server.port(), "/products/1/reviews", pass))
        .isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(server.port(), "/products/01", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(server.port(), "/products/+1", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(server.port(), "/products/1", null).status()).isEqualTo(403);
    assertThat(RawHttp.get(server.port(), "/", null)).isEqualTo(new RawHttp.Response(200, "home"));
  }

  @Configuration(proxyBeanMethods = false)
  @EnableWebFlux
  static class Shop {}
}
