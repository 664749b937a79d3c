package io.anteroom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.guard.CanonicalPath.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalPathTests {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/products/1           | /products/1",
        "/                     | /",
        "''                    | /",
        "/%70roducts/%31       | /products/1",
        "/products;a=b/1;c=d   | /products/1",
        "/products;/1;         | /products/1",
        "/products/1%3Bx       | /products/1;x",
        "//products///1/       | /products/1/",
        "/products/;a=b        | /products/",
        "/;a=b/products/1      | /products/1",
        "/products/%C3%A9      | /products/\u00e9",
        "/products/%3F%23%20+  | /products/?# +",
        "/products/1%2Ejson    | /products/1.json",
        "/products/...         | /products/..."
      })
  void readsAPathAsSpringRoutesIt(String raw, String canonical) {
    assertThat(CanonicalPath.of(raw)).isEqualTo(new CanonicalPath(canonical, null));
  }

  @Test
  void refusesAPathWithARawControlSpaceBackslashOrNonAsciiCharacter() {
    for (String raw :
        new String[] {
          null,
          "products/1",
          "/products\\1",
          "/pro ducts/1",
          "/pr\u00f6ducts/1",
          "/products/1\n",
          "/products/1\u007f"
        }) {
      assertThat(CanonicalPath.of(raw).problem()).as(raw).isEqualTo(Problem.CHARACTER);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/products%2F1",
        "/products%2f1",
        "/products%5C1",
        "/products/%25",
        "/products%252F1",
        "/products/1%",
        "/products/1%4",
        "/products/%zz",
        "/products/%FF",
        "/products/%C0%AF",
        "/products/%ED%A0%80",
        "/products/1%00",
        "/products/1%0d%0a",
        "/products/1%7F",
        "/products/1%C2%85",
        "/products/1%E2%80%A8"
      })
  void refusesAnEncodedSeparatorPercentOrControlAndABadEscape(String raw) {
    assertThat(CanonicalPath.of(raw).problem()).isEqualTo(Problem.ENCODING);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/./products/1",
        "/products/.",
        "/x/../products/1",
        "/products/1/..",
        "/..",
        "/%2e/products/1",
        "/%2E%2E/products/1",
        "/.;a=b/products/1",
        "/products/.%2e"
      })
  void refusesDotSegmentsWhichServersResolveAndSpringsMatchingKeeps(String raw) {
    assertThat(CanonicalPath.of(raw).problem()).isEqualTo(Problem.DOT_SEGMENT);
  }
}
