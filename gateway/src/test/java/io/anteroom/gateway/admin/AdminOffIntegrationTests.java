package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;

/** Without a configured token the admin API is off, says so at start-up, and serves nobody. */
@GatewayIntegrationTest(properties = {"anteroom.admin.token="})
@ExtendWith(OutputCaptureExtension.class)
class AdminOffIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalManagementPort int managementPort;

  @Test
  void everyApiCallIsRefusedWithASayingErrorWhateverTheToken(CapturedOutput log) {
    for (String token : List.of("", "null", "anything-at-all-0123456789")) {
      AdminClient client = new AdminClient(managementPort, token);
      for (HttpResponse<String> response :
          List.of(
              client.get("/admin/api/rooms"),
              client.patch("/admin/api/rooms/shop/settings", "{\"admit-per-second\": 1000}"),
              client.post("/admin/api/rooms/shop/queues/1/activate"))) {
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(AdminClient.body(response).get("error").stringValue())
            .isEqualTo("admin API is off: set ANTEROOM_ADMIN_TOKEN");
      }
    }
    assertThat(new AdminClient(managementPort, null).get("/admin/api/rooms").statusCode())
        .isEqualTo(403);
    assertThat(log.getAll()).contains("WARN").contains("Admin API is off");
  }

  @Test
  void thePageStillLoadsAndHoldsNoData() {
    HttpResponse<String> page = new AdminClient(managementPort, null).get("/admin");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("Anteroom admin");
  }
}
