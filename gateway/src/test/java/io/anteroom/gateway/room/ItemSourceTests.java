package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.QueueId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class ItemSourceTests {

  @Test
  void readsEachKindOfSource() {
    MockServerWebExchange exchange =
        MockServerWebExchange.from(
            MockServerHttpRequest.get("/products/7?sku=blue").header("X-Item", "h1"));
    ServerWebExchangeUtils.putUriTemplateVariables(exchange, Map.of("id", "7"));

    assertThat(ItemSource.parse("shop", "path:id").item(exchange)).isEqualTo("7");
    assertThat(ItemSource.parse("shop", "query:sku").item(exchange)).isEqualTo("blue");
    assertThat(ItemSource.parse("shop", "header:X-Item").item(exchange)).isEqualTo("h1");
    assertThat(ItemSource.parse("shop", "room").item(exchange)).isEqualTo(QueueId.ROOM_WIDE);
    assertThat(ItemSource.parse("shop", null).item(exchange)).isEqualTo(QueueId.ROOM_WIDE);
  }

  @Test
  void aMissingValueQueuesInTheRoomWideLine() {
    MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/x"));

    assertThat(ItemSource.parse("shop", "query:sku").item(exchange)).isEqualTo(QueueId.ROOM_WIDE);
    assertThat(ItemSource.parse("shop", "path:id").item(exchange)).isEqualTo(QueueId.ROOM_WIDE);
  }

  @Test
  void unknownFormsNameTheProperty() {
    assertThatThrownBy(() -> ItemSource.parse("shop", "cookie:x"))
        .hasMessageContaining("anteroom.rooms.shop.item");
    assertThatThrownBy(() -> ItemSource.parse("shop", "path:"))
        .hasMessageContaining("anteroom.rooms.shop.item");
  }
}
