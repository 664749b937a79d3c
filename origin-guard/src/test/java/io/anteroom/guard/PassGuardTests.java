package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static io.anteroom.guard.TestPasses.pass;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PassGuardTests {

  private final TestPasses.Key key = TestPasses.ed25519("k1");
  private final PassGuard guard =
      new PassGuard(
          PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build(),
          GuardSettings.forbidding(ROOM, List.of("/products/{id}", "/products/{id}/**")));

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/products/1",
        "/%70roducts/1",
        "/products;a=b/1",
        "/products//1",
        "/./products/1",
        "/x/../products/1",
        "/products/1;a=b",
        "/products/1/..",
        "/PRODUCTS/1"
      })
  void noSpellingOfAProductPageIsLetThroughWithoutAPass(String path) {
    Verdict verdict = guard.decide(request(path, null));

    assertThat(verdict.allowed()).isFalse();
    assertThat(verdict.status()).isIn(400, 403);
  }

  @Test
  void theItemIsTheSegmentAsSpringReadsIt() {
    Verdict verdict =
        guard.decide(request("/%70roducts;a=b/%31;c=d", pass(key, Instant.now(), "1")));

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.check().item()).isEqualTo("1");
  }

  @Test
  void anAmbiguousSpellingIsRefusedWith400NamingTheReasonEvenWithAPass() {
    Verdict verdict = guard.decide(request("/products/2/../1", pass(key, Instant.now(), "1")));

    assertThat(verdict.status()).isEqualTo(400);
    assertThat(verdict.body()).isEqualTo("Bad Request: ambiguous path (dot_segment)\n");
    assertThat(verdict.check().refusal()).isEqualTo(Refusal.AMBIGUOUS_PATH);
    assertThat(guard.protects("/static/%2e%2e/app.css")).isTrue();
  }

  @Test
  void otherPathsPassWithoutAPassHoweverTheyAreSpelled() {
    for (String path : List.of("/", "", "/products", "/%73tatic/app.css;v=2", "/about//us/")) {
      assertThat(guard.protects(path)).as(path).isFalse();
      assertThat(guard.decide(request(path, null))).as(path).isEqualTo(Verdict.UNPROTECTED);
    }
  }

  @Test
  void namesMatchIgnoringCaseAndAStarAtTheEndMatchesAnEmptyLastSegment() {
    PassGuard starred =
        new PassGuard(
            PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build(),
            GuardSettings.forbidding(ROOM, List.of("/checkout/*")));

    assertThat(guard.protects("/Products/1")).isTrue();
    assertThat(guard.protects("/product%C5%BF/1")).isTrue();
    assertThat(starred.protects("/checkout/")).isTrue();
    assertThat(starred.protects("/checkout/;a=b")).isTrue();
    assertThat(starred.protects("/checkout/now/")).isTrue();
    assertThat(starred.protects("/checkout")).isFalse();
  }

  @Test
  void withIntegerIdsEverySpellingOfANumberNeedsThePassForTheNumberAndOthersOpenNothing() {
    PassGuard integers =
        new PassGuard(
            PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build(),
            GuardSettings.forbidding(ROOM, List.of("/products/{id}"))
                .withItems(GuardSettings.ItemFormat.INTEGER, GuardSettings.ItemCase.SENSITIVE));
    String one = pass(key, Instant.now(), "1");

    for (String path : List.of("/products/1", "/products/01", "/products/+1", "/products/%2B001")) {
      assertThat(integers.decide(request(path, one)).check().item()).as(path).isEqualTo("1");
    }
    for (String id : List.of("01", "0x1", "%201", "%EF%BC%91", "1.0", "1" + "0".repeat(19))) {
      Verdict verdict = integers.decide(request("/products/" + id, pass(key, Instant.now(), id)));
      assertThat(verdict.check().refusal()).as(id).isEqualTo(Refusal.WRONG_ITEM);
    }
  }

  @Test
  void withCaseInsensitiveIdsTheItemIsLowerCased() {
    PassGuard insensitive =
        new PassGuard(
            PassVerifier.builder().jwkSet(TestPasses.jwks(key)).build(),
            GuardSettings.forbidding(ROOM, List.of("/sales/{id}"))
                .withItems(GuardSettings.ItemFormat.TEXT, GuardSettings.ItemCase.INSENSITIVE));

    Verdict verdict =
        insensitive.decide(request("/sales/Spring", pass(key, Instant.now(), "spring")));

    assertThat(verdict.check().item()).isEqualTo("spring");
    assertThat(
            insensitive
                .decide(request("/sales/Spring", pass(key, Instant.now(), "Spring")))
                .allowed())
        .isFalse();
  }

  private static PassGuard.Request request(String path, String pass) {
    return new PassGuard.Request() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public String pathAndQuery() {
        return path;
      }

      @Override
      public String header(String name) {
        return name.equals(GuardSettings.DEFAULT_PASS_HEADER) ? pass : null;
      }

      @Override
      public String cookie(String name) {
        return null;
      }
    };
  }
}
