package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class ItemSourceTests {

  private static final ItemSource QUERY = ItemSource.parse("shop", "query:id");
  private static final ItemSource HEADER = ItemSource.parse("shop", "header:X-Item");

  @Test
  void readsEachKindOfSource() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("/products/7?sku=blue").header("X-Item", "h1"));
    ServerWebExchangeUtils.putUriTemplateVariables(exchange, Map.of("id", "7"));

    assertThat(ItemSource.parse("shop", "path:id").item(exchange)).isEqualTo("7");
    assertThat(ItemSource.parse("shop", "query:sku").item(exchange)).isEqualTo("blue");
    assertThat(ItemSource.parse("shop", "header:X-Item").item(exchange)).isEqualTo("h1");
    assertThat(ItemSource.parse("shop", "room").item(exchange)).isNull();
    assertThat(ItemSource.parse("shop", null).item(exchange)).isNull();
  }

  @Test
  void aMissingValueNamesNoItem() {
    MockServerWebExchange exchange = get("/x?other=1&idx=2&xid=3");

    assertThat(QUERY.item(exchange)).isNull();
    assertThat(HEADER.item(exchange)).isNull();
    assertThat(ItemSource.parse("shop", "path:id").item(exchange)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"id=7", "a=1&id=7", "id=7&b=2", "id=7&", "&id=7", "a=%31&id=7", "b&id=7"})
  void aQueryParameterGivenOnceAndPlainIsItsRawValue(String query) {
    assertThat(QUERY.item(get("/item?" + query))).isEqualTo("7");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "id=1&id=2",
        "id=1&id=1",
        "id=1;id=2",
        "x=1;id=2&id=2",
        "id=",
        "id",
        "id=&id=1",
        "id=%31",
        "id=1%20",
        "id=+1",
        "i%64=1",
        "id=1&i%64=2",
        "%69%64=1"
      })
  void aQueryParameterRepeatedEncodedOrEmptyIsTheEmptyId(String query) {
    assertThat(QUERY.item(get("/item?" + query))).isEmpty();
  }

  @Test
  void anotherParameterThatNoFrameworkReadsAsItIsNotRead() {
    assertThat(QUERY.item(get("/item?i+d=1&id=7"))).isEqualTo("7");
    assertThat(QUERY.item(get("/item?idx=1&id=7"))).isEqualTo("7");
    assertThat(QUERY.item(get("/item?id_=1&id=7"))).isEqualTo("7");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ID=1",
        "Id=1",
        "ID=1&id=7",
        "id[]=1",
        "id[0]=1",
        "id%5B%5D=1",
        "ID[]=1&id=7",
        "%49%44=1"
      })
  void aParameterThatSomeFrameworkReadsAsItMakesTheIdEmpty(String query) {
    assertThat(QUERY.item(get("/item?" + query))).isEmpty();
  }

  @Test
  void aHeaderSpelledWithAnUnderscoreMakesTheIdEmpty() {
    assertThat(HEADER.item(withHeaders("X_Item", "1"))).isEmpty();
    assertThat(HEADER.item(withHeaders("X-Item", "7", "x_item", "1"))).isEmpty();
    assertThat(HEADER.item(withHeaders("X-Items", "1"))).isNull();
  }

  @Test
  void onlyParametersAndHeadersLeaveAnOriginSomewhereElseToFindTheItem() {
    assertThat(QUERY.readsParameters()).isTrue();
    assertThat(HEADER.readsParameters()).isTrue();
    assertThat(ItemSource.parse("shop", "path:id").readsParameters()).isFalse();
    assertThat(ItemSource.parse("shop", "room").readsParameters()).isFalse();
  }

  @Test
  void aHeaderGivenOnceAndPlainIsItsValue() {
    assertThat(HEADER.item(withHeaders("X-Item", "7"))).isEqualTo("7");
    assertThat(HEADER.item(withHeaders("x-item", "7"))).isEqualTo("7");
  }

  @Test
  void aHeaderRepeatedEncodedOrEmptyIsTheEmptyId() {
    assertThat(HEADER.item(withHeaders("X-Item", "1", "X-Item", "2"))).isEmpty();
    assertThat(HEADER.item(withHeaders("X-Item", "1", "x-item", "1"))).isEmpty();
    assertThat(HEADER.item(withHeaders("X-Item", "%31"))).isEmpty();
    assertThat(HEADER.item(withHeaders("X-Item", ""))).isEmpty();
  }

  @Test
  void thePathVariableHoldsTheLastSegmentWhenThePatternEndsWithIt() {
    ItemSource path = ItemSource.parse("shop", "path:id");

    assertThat(path.holdsLastSegment(matched("/products/1.js", "/products/{id}", "1.js"))).isTrue();
    assertThat(path.holdsLastSegment(matched("/products/1.js", "/products/{id}/**", "1.js")))
        .isTrue();
    assertThat(path.holdsLastSegment(matched("/p/item-1.js", "/p/item-{id}.{ext}", "1"))).isTrue();
    assertThat(path.holdsLastSegment(matched("/p/1.js", "/p/{id:[0-9.a-z]+}", "1.js"))).isTrue();
    assertThat(path.holdsLastSegment(matched("/products/1/app.css", "/products/{id}/**", "1")))
        .isFalse();
    assertThat(path.holdsLastSegment(matched("/a/b/1/x.css", "/a/*/{id}/{file}", "1"))).isFalse();
  }

  @Test
  void thePathVariableHoldsTheLastSegmentWhenThePatternCannotTell() {
    ItemSource path = ItemSource.parse("shop", "path:id");

    assertThat(path.holdsLastSegment(matched("/a/b/1/x.css", "/a/**/{id}/x.css", "1"))).isTrue();
    assertThat(path.holdsLastSegment(matched("/a/1/x.css", "/a/{*id}", "/1/x.css"))).isTrue();
    MockServerWebExchange unrecorded = get("/products/1/app.css");
    ServerWebExchangeUtils.putUriTemplateVariables(unrecorded, Map.of("id", "1"));
    assertThat(path.holdsLastSegment(unrecorded)).isTrue();
  }

  @Test
  void noItemHoldsNoSegment() {
    assertThat(ItemSource.parse("shop", "path:id").holdsLastSegment(get("/x/app.js"))).isFalse();
    assertThat(QUERY.holdsLastSegment(get("/x/app.js?id=1"))).isFalse();
    assertThat(ItemSource.parse("shop", "room").holdsLastSegment(get("/x/app.js"))).isFalse();
  }

  @Test
  void unknownFormsNameTheProperty() {
    assertThatThrownBy(() -> ItemSource.parse("shop", "cookie:x"))
        .hasMessageContaining("anteroom.rooms.shop.item");
    assertThatThrownBy(() -> ItemSource.parse("shop", "path:"))
        .hasMessageContaining("anteroom.rooms.shop.item");
  }

  /** A GET of {@code uri} exactly as written: no template expansion, no encoding. */
  private static MockServerWebExchange get(String uri) {
    return MockServerWebExchange.from(
        MockServerHttpRequest.method(HttpMethod.GET, URI.create(uri)));
  }

  private static MockServerWebExchange withHeaders(String... headers) {
    MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("/item");
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return MockServerWebExchange.from(request);
  }

  /** A request as the gateway routed it: the Path pattern it matched and the item variable. */
  private static MockServerWebExchange matched(String path, String pattern, String id) {
    MockServerWebExchange exchange = get(path);
    ServerWebExchangeUtils.putUriTemplateVariables(exchange, Map.of("id", id));
    exchange
        .getAttributes()
        .put(ServerWebExchangeUtils.GATEWAY_PREDICATE_MATCHED_PATH_ATTR, pattern);
    return exchange;
  }
}
