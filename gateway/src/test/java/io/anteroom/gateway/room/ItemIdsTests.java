package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.config.RoomOptions;
import io.anteroom.queue.redis.RedisProperties;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class ItemIdsTests {

  /** A room's item ids from its settings as written in YAML. */
  private static ItemIds parse(String room, Map<String, String> settings) {
    return ItemIds.parse(room, RoomOptions.of(settings));
  }

  private final ItemIds text = parse("shop", Map.of("item", "path:id"));
  private final ItemIds integer =
      parse("shop", Map.of("item", "path:id", "item-format", "integer"));

  @ParameterizedTest
  @ValueSource(strings = {"1", "sku-42", "A_b", "-", "_"})
  void textWhenTheIdFitsTheDefaultPatternThenKeepsItAsItIs(String id) {
    assertThat(text.canonical(id)).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "1.", "1.json", "a b", "a/b", "１", "é", "1;x", "1%2e", "+1", "a,b", "~1"})
  void textWhenTheIdDoesNotFitTheDefaultPatternThenRefusesIt(String id) {
    assertThat(text.canonical(id)).isNull();
  }

  @Test
  void textWhenLongerThanSixtyFourThenRefuses() {
    assertThat(text.canonical("x".repeat(64))).isEqualTo("x".repeat(64));
    assertThat(text.canonical("x".repeat(65))).isNull();
  }

  @ParameterizedTest
  @CsvSource({
    "1, 1",
    "01, 1",
    "001, 1",
    "+1, 1",
    "+001, 1",
    "-1, -1",
    "-007, -7",
    "0, 0",
    "-0, 0",
    "+0, 0",
    "000, 0",
    "9223372036854775807, 9223372036854775807",
    "-9223372036854775808, -9223372036854775808"
  })
  void integerWhenDigitsWithAnOptionalSignThenTheirDecimal(String raw, String canonical) {
    assertThat(integer.canonical(raw)).isEqualTo(canonical);
  }

  @Test
  void integerWhenLeadingZerosStayWithinTheLengthThenTheDecimal() {
    assertThat(integer.canonical("0".repeat(63) + "7")).isEqualTo("7");
    assertThat(integer.canonical("0".repeat(64) + "7")).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "+",
        "-",
        "+-1",
        "--1",
        "1.",
        "1.0",
        "1.json",
        "0x1",
        "0X1",
        "1e0",
        "1E0",
        "1_000",
        "1,000",
        " 1",
        "1 ",
        "\t1",
        "1a",
        "a1",
        "１",
        "٣",
        "१",
        "𝟏",
        "9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999"
      })
  void integerWhenAnythingButAsciiDigitsWithinRangeThenRefuses(String raw) {
    assertThat(integer.canonical(raw)).isNull();
  }

  @Test
  void insensitiveLowerCasesBeforeThePatternIsApplied() {
    ItemIds tags =
        parse(
            "tags",
            Map.of("item", "path:tag", "item-case", "insensitive", "item-pattern", "[a-z]{1,8}"));

    assertThat(tags.canonical("sale")).isEqualTo("sale");
    assertThat(tags.canonical("Sale")).isEqualTo("sale");
    assertThat(tags.canonical("SALE")).isEqualTo("sale");
    assertThat(tags.canonical("sale1")).isNull();
    assertThat(text.canonical("Sale")).isEqualTo("Sale");
  }

  @Test
  void thePatternMustMatchTheWholeId() {
    ItemIds files = parse("files", Map.of("item-pattern", "[a-z0-9.]+"));

    assertThat(files.canonical("report.js")).isEqualTo("report.js");
    assertThat(files.canonical("report.js/x")).isNull();
    assertThat(files.canonical("Report.js")).isNull();
  }

  @Test
  void aRequestWithoutAnIdQueuesRoomWideAndAnUnreadableOneIsRefused() {
    ItemIds byQuery = parse("shop", Map.of("item", "query:id"));

    assertThat(byQuery.of(exchange("/item"))).isEqualTo(QueueId.ROOM_WIDE);
    assertThat(byQuery.of(exchange("/item?id=7"))).isEqualTo("7");
    assertThat(byQuery.of(exchange("/item?id=7&id=7"))).isNull();
    assertThat(byQuery.of(exchange("/item?id=07"))).isEqualTo("07");
    assertThat(byQuery.of(exchange("/item?id=7"))).isEqualTo("7");
    assertThat(parse("shop", Map.of()).of(exchange("/item?id=7"))).isEqualTo(QueueId.ROOM_WIDE);
  }

  @Test
  void refusesWithTheRoomsStatusAndASmallBody() {
    MockServerWebExchange notFound = exchange("/products/1.json");
    text.refuse(notFound).block();
    MockServerWebExchange badRequest = exchange("/products/1.json");
    parse("shop", Map.of("item-refusal", "400")).refuse(badRequest).block();

    assertThat(notFound.getResponse().getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
    assertThat(notFound.getResponse().getBodyAsString().block())
        .isEqualTo("{\"error\":\"invalid-item\"}");
    assertThat(notFound.getResponse().getHeaders().getCacheControl()).isEqualTo("no-store");
    assertThat(badRequest.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
  }

  @Test
  void badOptionsAreRefusedNamingTheProperty() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item-format", "number")))
        .withMessage("anteroom.rooms.shop.item-format: must be text or integer, was 'number'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item-case", "lower")))
        .withMessage(
            "anteroom.rooms.shop.item-case: must be sensitive or insensitive, was 'lower'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item-refusal", "403")))
        .withMessage("anteroom.rooms.shop.item-refusal: must be 404 or 400, was '403'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item-pattern", "[a-z")))
        .withMessageStartingWith(
            "anteroom.rooms.shop.item-pattern: '[a-z' is not a regular expression");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item-pattern", " ")))
        .withMessage("anteroom.rooms.shop.item-pattern: must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> parse("shop", Map.of("item", "cookie:id")))
        .withMessageStartingWith("anteroom.rooms.shop.item:");
  }

  @Test
  void itemOptionsAreNotTakenForPolicy() {
    Map<String, String> room =
        Map.of(
            "item", "path:id",
            "item-pattern", "[a-z]+",
            "item-case", "insensitive",
            "item-format", "integer",
            "item-refusal", "400");
    AnteroomProperties anteroom =
        new AnteroomProperties(
            "wr",
            new RedisProperties(
                "redis://127.0.0.1:6379", Duration.ofMillis(500), Duration.ofSeconds(1), 10_000),
            Map.of(),
            Map.of("shop", room));

    assertThat(anteroom.policies()).containsKey("shop");
  }

  private static MockServerWebExchange exchange(String uri) {
    return MockServerWebExchange.from(
        MockServerHttpRequest.method(HttpMethod.GET, URI.create(uri)));
  }
}
