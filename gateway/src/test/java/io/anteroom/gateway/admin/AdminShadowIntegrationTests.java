package io.anteroom.gateway.admin;

import static io.anteroom.gateway.admin.AdminClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

/**
 * What the admin listing shows of a queue in shadow mode: the figures of its virtual line, read by
 * a viewer; nothing of the kind for a queue in another mode.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.admin.token=" + AdminShadowIntegrationTests.ADMIN,
      "anteroom.admin.tokens.vera.role=viewer",
      // printf %s viewer-token-0123456789abcdef | sha256sum
      "anteroom.admin.tokens.vera.sha256="
          + "1ab54f182b9a50d530abaeb7b999bc51e2194931aef2cf21d6c799bae267ce6c"
    })
class AdminShadowIntegrationTests {

  static final String ADMIN = "admin-token-0123456789abcdef";
  static final String VIEWER = "viewer-token-0123456789abcdef";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;
  @Autowired ActiveQueues active;
  @Autowired SettingsStore settings;
  @Autowired QueueKeys keys;

  JsonNode listed(String item) {
    HttpResponse<String> response = new AdminClient(managementPort, VIEWER).get("/admin/api/rooms");
    assertThat(response.statusCode()).isEqualTo(200);
    for (JsonNode room : body(response).get("rooms")) {
      for (JsonNode queue : room.get("queues")) {
        if (queue.get("item").stringValue().equals(item)) {
          return queue;
        }
      }
    }
    return null;
  }

  @Test
  void listingWhenAQueueIsInShadowModeThenAViewerReadsItsVirtualLine() {
    QueueId queue = QueueId.of("shop", "7");
    settings.put("shop", "7", Map.of("mode", "shadow")).block();
    active.activate(queue, Activation.MANUAL).block();
    QueueKeys shadow = keys.shadow();
    for (int i = 0; i < 4; i++) {
      redis.server().command("ZADD", shadow.waiting(queue), "" + i, "w" + i);
    }
    redis.server().command("ZADD", shadow.running(queue), "1", "r1");
    for (String wait : new String[] {"1000", "2000", "3000", "4000", "10000"}) {
      redis.server().command("LPUSH", shadow.waits(queue), wait);
    }

    JsonNode listed = listed("7");

    assertThat(listed.get("state").stringValue()).isEqualTo("shadow");
    JsonNode figures = listed.get("shadow");
    assertThat(figures.get("waiting").longValue()).isEqualTo(4);
    assertThat(figures.get("active").longValue()).isEqualTo(1);
    assertThat(figures.get("wait-p50-seconds").stringValue()).isEqualTo("3");
    assertThat(figures.get("wait-p90-seconds").stringValue()).isEqualTo("10");
    assertThat(figures.get("waits").intValue()).isEqualTo(5);
    assertThat(listed.get("waiting").longValue()).as("the real line").isZero();
  }

  @Test
  void listingWhenAQueueIsInAnotherModeThenShowsNoVirtualLine() {
    active.activate(QueueId.of("shop", "8"), Activation.MANUAL).block();

    assertThat(listed("8").has("shadow")).isFalse();
  }
}
