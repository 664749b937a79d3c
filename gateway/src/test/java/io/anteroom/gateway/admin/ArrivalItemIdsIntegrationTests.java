package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A visitor who crafts the item id to break the export: the room reads its item from a header and
 * accepts nearly anything, and every id still reaches the CSV in its key spelling, one row each.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.record-arrivals=1",
      "anteroom.rooms.shop.item=header:X-Item",
      "anteroom.rooms.shop.item-format=text",
      "anteroom.rooms.shop.item-pattern=.{1,200}",
      "anteroom.admin.token=" + ArrivalItemIdsIntegrationTests.TOKEN
    })
class ArrivalItemIdsIntegrationTests {

  static final String TOKEN = "admin-token-0123456789abcdef";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;

  @Test
  void craftedItemIdsReachTheExportInTheirKeySpellingOneRowEach() {
    List<String> crafted =
        List.of(
            "7,8\",9",
            "# anteroom arrivals room=other sample=1",
            "=HYPERLINK(\"http://x\")",
            "x.y-Z_9",
            "a".repeat(65));
    Visitor visitor = new Visitor(port);
    for (String item : crafted) {
      HttpResponse<String> response =
          visitor.send(
              HttpRequest.newBuilder(URI.create(visitor.base() + "/products/1"))
                  .header("X-Item", item)
                  .GET());
      assertThat(response.statusCode()).as(item).isEqualTo(200);
    }
    List<String> expected = crafted.stream().map(item -> QueueId.of("shop", item).item()).toList();
    assertThat(expected.get(0)).matches("~[0-9a-f]{32}");
    assertThat(expected.get(3)).isEqualTo("x.y-Z_9");

    await().atMost(Duration.ofSeconds(10)).until(() -> lines().size() == 2 + crafted.size() + 1);

    List<String> lines = lines();
    assertThat(lines.get(0)).startsWith("# anteroom arrivals room=shop sample=1 from=");
    assertThat(lines.get(1)).isEqualTo("at_ms,item");
    assertThat(lines.subList(2, lines.size() - 1))
        .allMatch(row -> row.matches("\\d{13},[A-Za-z0-9._~-]{1,64}"))
        .extracting(row -> row.substring(row.indexOf(',') + 1))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(lines.get(lines.size() - 1)).isEmpty();
  }

  private List<String> lines() {
    HttpResponse<String> response =
        new AdminClient(managementPort, TOKEN).get("/admin/api/rooms/shop/arrivals");
    assertThat(response.statusCode()).isEqualTo(200);
    return Arrays.asList(response.body().split("\n", -1));
  }
}
