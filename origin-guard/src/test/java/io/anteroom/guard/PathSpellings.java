package io.anteroom.guard;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Request targets that spell, or nearly spell, product 1's page {@code /products/1} (or a page
 * below it) in ways a server or framework may read differently: what a visitor going around the
 * gateway would try. Each is sent as it is written here.
 */
final class PathSpellings {

  /** The protected paths of the origins under test; the origins serve both. */
  static final List<String> GUARDED = List.of("/products/{id}", "/products/{id}/**");

  private PathSpellings() {}

  /**
   * Ids that a number parser reads as 1 (or -1), as a request line spells them, each with the item
   * a pass names for it from a room whose ids are text: such a room queues each as an item of its
   * own.
   */
  static List<Arguments> numberSpellingsOfOne() {
    String[][] spellings = {
      {"01", "01"},
      {"001", "001"},
      {"+1", "+1"},
      {"%2B1", "+1"},
      {"%201", " 1"},
      {"1%20", "1 "},
      {"0x1", "0x1"},
      {"%231", "#1"},
      {"%EF%BC%91", "\uff11"},
      {"-0x1", "-0x1"}
    };
    return Arrays.stream(spellings)
        .map(spelling -> Arguments.of(spelling[0], ItemIds.normalise(spelling[1])))
        .toList();
  }

  static List<String> all() {
    return List.of(
        // Percent-encoded letters and digits, and the same encoded twice.
        "/%70roducts/1",
        "/product%73/1",
        "/products/%31",
        "/%2570roducts/1",
        "/products/%2531",
        // Path parameters on each segment, and an encoded ';'.
        "/products;a=b/1",
        "/products/1;a=b",
        "/products;/1",
        "/;a=b/products/1",
        "/products;jsessionid=x/1;a=b/reviews",
        "/products/1%3Ba=b",
        // Empty segments.
        "/products//1",
        "//products/1",
        "/products/1//reviews",
        // Dot segments, raw and encoded, above the root too.
        "/./products/1",
        "/products/./1",
        "/x/../products/1",
        "/products/2/../1",
        "/products/1/..",
        "/products/1/.",
        "/%2e/products/1",
        "/x/%2e%2e/products/1",
        "/x/%2E%2E/products/1",
        "/products/1/.;a=b",
        "/../products/1",
        "/products/%252e%252e/1",
        // Encoded and raw separators.
        "/products%2F1",
        "/products%2f1",
        "/products%252F1",
        "/products%5C1",
        "/products\\1",
        // Trailing slash and case.
        "/products/1/",
        "/PRODUCTS/1",
        "/Products/1",
        "/product\u017f/1",
        "/product%C5%BF/1",
        "/PRODUCTS/%31",
        // Control characters, bad escapes, raw and encoded non-ASCII.
        "/products/1%00",
        "/products/1%0a",
        "/products/1%E2%80%A8",
        "/products/1%",
        "/products/%zz",
        "/products/%FF",
        "/products/%C0%B1",
        "/pr\u00f6ducts/1",
        "/products/%EF%BC%91",
        // Item ids a number parser reads as 1, or as a number at all.
        "/products/01",
        "/products/+1",
        "/products/%2B1",
        "/products/%201",
        "/products/0x1",
        "/products/%231",
        "/products/1.0",
        "/products/03",
        "/products/+4",
        // Query strings, fragments, absolute form, long paths.
        "/products/1?x=1",
        "/%70roducts/1?x=/../",
        "/products/1#x",
        "/products/1%23x",
        "http://127.0.0.1/%70roducts/1",
        "/products/" + "1".repeat(3000),
        "/products/1/" + "x/".repeat(1500) + "reviews");
  }
}
