package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Instant;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * A Spring MVC shop on Tomcat, with {@link PassGuardFilter} in front of its product pages: no
 * spelling of a product page reaches the product handler without a pass, and a pass for product 1
 * opens product 1 and nothing else, however the path is spelled.
 */
class PassGuardFilterSpellingsIntegrationTests {

  private static final TestPasses.Key KEY = TestPasses.ed25519("k1");

  private static Tomcat tomcat;
  private static int port;

  @BeforeAll
  static void startShop() throws Exception {
    PassGuard guard =
        new PassGuard(
            PassVerifier.builder().jwkSet(TestPasses.jwks(KEY)).build(),
            GuardSettings.forbidding(ROOM, PathSpellings.GUARDED)
                .withItems(GuardSettings.ItemFormat.INTEGER, GuardSettings.ItemCase.SENSITIVE));
    tomcat = new Tomcat();
    tomcat.setBaseDir(Files.createTempDirectory("guarded-shop").toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", null);
    FilterDef filter = new FilterDef();
    filter.setFilterName("anteroomPassGuard");
    filter.setFilter(new PassGuardFilter(guard));
    context.addFilterDef(filter);
    FilterMap mapping = new FilterMap();
    mapping.setFilterName("anteroomPassGuard");
    mapping.addURLPattern("/*");
    context.addFilterMap(mapping);
    AnnotationConfigWebApplicationContext shop = new AnnotationConfigWebApplicationContext();
    shop.register(Shop.class, ProductPages.class);
    Tomcat.addServlet(context, "shop", new DispatcherServlet(shop)).setLoadOnStartup(1);
    context.addServletMappingDecoded("/", "shop");
    tomcat.start();
    port = tomcat.getConnector().getLocalPort();
  }

  @AfterAll
  static void stopShop() throws LifecycleException {
    tomcat.stop();
    tomcat.destroy();
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#all")
  void withoutAPassNoSpellingReachesTheProductHandler(String target) {
    RawHttp.Response response = RawHttp.get(port, target, null);

    assertThat(ProductPages.served(response)).as("%s answered %s", target, response).isFalse();
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#all")
  void withAPassForProductOneNoSpellingOpensAnotherProduct(String target) {
    RawHttp.Response response = RawHttp.get(port, target, TestPasses.pass(KEY, Instant.now(), "1"));

    if (ProductPages.served(response)) {
      assertThat(response.body()).as(target).isEqualTo("product 1");
    }
  }

  @ParameterizedTest
  @MethodSource("io.anteroom.guard.PathSpellings#numberSpellingsOfOne")
  void aPassForAnotherSpellingOfTheIdDoesNotOpenTheProductItReadsAs(String id, String item) {
    String pass = TestPasses.pass(KEY, Instant.now(), item);

    RawHttp.Response response = RawHttp.get(port, "/products/" + id, pass);

    assertThat(ProductPages.served(response)).as("%s answered %s", id, response).isFalse();
  }

  @Test
  void aPassForTheProductOpensItsPagesSpelledAsTheRoomReadsThem() {
    String pass = TestPasses.pass(KEY, Instant.now(), "1");

    assertThat(RawHttp.get(port, "/products/1", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(port, "/products/1/reviews", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(port, "/products/01", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(port, "/products/+1", pass)).isEqualTo(ProductPages.page(1));
    assertThat(RawHttp.get(port, "/products/1", null).status()).isEqualTo(403);
    assertThat(RawHttp.get(port, "/", null)).isEqualTo(new RawHttp.Response(200, "home"));
  }

  @Configuration(proxyBeanMethods = false)
  @EnableWebMvc
  static class Shop {}
}
