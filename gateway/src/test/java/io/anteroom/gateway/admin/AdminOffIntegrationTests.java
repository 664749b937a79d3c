package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Without a configured token the admin API is off, says so at start-up, and serves nobody. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      GatewayTestSetup.CONFIG,
      GatewayTestSetup.KEYS,
      "anteroom.gateway.cookie-secure=false",
      "management.server.port=0",
      "anteroom.admin.token="
    })
@ExtendWith(OutputCaptureExtension.class)
class AdminOffIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  static WireMockServer origin = GatewayTestSetup.origin();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    GatewayTestSetup.properties(registry, redis, origin);
  }

  @AfterAll
  static void stopOrigin() {
    origin.stop();
  }

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
