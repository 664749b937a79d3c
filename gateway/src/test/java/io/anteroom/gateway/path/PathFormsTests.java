package io.anteroom.gateway.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.path.PathForms.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathFormsTests {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/",
        "/products/31",
        "/products/31/",
        "/search",
        "/a/b.c/d..e/.f",
        "/caf%C3%A9",
        "/a%20b",
        "/a%3Fb",
        "/~user/x-y_z"
      })
  void normalPathsHaveNoProblem(String path) {
    assertThat(PathForms.problem(path)).isNull();
  }

  @ParameterizedTest
  @CsvSource({
    "'', CHARACTER",
    "products, CHARACTER",
    "/a b, CHARACTER",
    "/a\\b, CHARACTER",
    "/caf\u00e9, CHARACTER",
    "//products, EMPTY_SEGMENT",
    "/products//31, EMPTY_SEGMENT",
    "/./products, DOT_SEGMENT",
    "/x/../products, DOT_SEGMENT",
    "/products/.., DOT_SEGMENT",
    "/products/., DOT_SEGMENT",
    "/products;x=1/31, PATH_PARAMETER",
    "/products/31;jsessionid=a, PATH_PARAMETER",
    "/products/31%3bx, PATH_PARAMETER",
    "/%2e%2e/products, ENCODING",
    "/products%2F31, ENCODING",
    "/products%5c31, ENCODING",
    "/products%252F31, ENCODING",
    "/products%00, ENCODING",
    "/products%7F, ENCODING",
    "/%70roducts, ENCODING",
    "/products/%33%31, ENCODING",
    "/products%, ENCODING",
    "/products%2, ENCODING",
    "/products%zz, ENCODING"
  })
  void oddPathsAreNamedByTheirFirstProblem(String path, Problem problem) {
    assertThat(PathForms.problem(path)).isEqualTo(problem);
  }

  @Test
  void caseAndTrailingSlashVariantsOfProtectedPathsAreRecognised() {
    ProtectedPaths paths = new ProtectedPaths(List.of("/products/{id}", "/checkout"));

    assertThat(paths.isVariant("/products/31")).isFalse();
    assertThat(paths.isVariant("/checkout")).isFalse();
    assertThat(paths.isVariant("/about")).isFalse();
    assertThat(paths.isVariant("/products/31/x")).isFalse();
    assertThat(paths.isVariant("/PRODUCTS/31")).isTrue();
    assertThat(paths.isVariant("/Checkout")).isTrue();
    assertThat(paths.isVariant("/checkout/")).isTrue();
    assertThat(paths.isVariant("/products/31/")).isTrue();
  }
}
