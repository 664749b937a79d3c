package io.anteroom.gateway.admin;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Who reaches the admin API, and on which port: only callers with the token, only on the management
 * port; the management port serves nothing of the visitors' side, and Spring Cloud Gateway's own
 * actuator endpoint is not there at all.
 */
@GatewayIntegrationTest(
    properties = {
      // Exposed by mistake, the gateway endpoint must still be unreachable (access: none).
      "management.endpoints.web.exposure.include=health,info,prometheus,metrics,gateway",
      "anteroom.admin.token=" + AdminAccessIntegrationTests.TOKEN
    },
    fixedManagementPort = true)
class AdminAccessIntegrationTests {

  static final String TOKEN = "access-test-token-abcdef0123456789";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;

  @Test
  void requestsWithoutTheRightTokenGet401WithABearerChallenge() {
    List<String> wrong =
        List.of(
            "wrong-token-0123456789abcdef0123",
            TOKEN + "x",
            TOKEN.substring(0, TOKEN.length() - 1),
            TOKEN.toUpperCase(),
            "");
    assertUnauthorized(new AdminClient(managementPort, null).get("/admin/api/rooms"));
    for (String token : wrong) {
      assertUnauthorized(new AdminClient(managementPort, token).get("/admin/api/rooms"));
    }
    AdminClient basic = new AdminClient(managementPort, null);
    assertUnauthorized(
        basic.send(basic.request("/admin/api/rooms").header("Authorization", "Basic " + TOKEN)));
    assertUnauthorized(
        new AdminClient(managementPort, "wrong-token-0123456789abcdef")
            .patch("/admin/api/rooms/shop/settings", "{\"admit-per-second\": 1000}"));
    assertUnauthorized(new AdminClient(managementPort, null).get("/admin/api/no-such-call"));

    assertThat(new AdminClient(managementPort, TOKEN).get("/admin/api/rooms").statusCode())
        .isEqualTo(200);
    AdminClient lowerCase = new AdminClient(managementPort, null);
    assertThat(
            lowerCase
                .send(
                    lowerCase
                        .request("/admin/api/rooms")
                        .header("Authorization", "bearer " + TOKEN))
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void unknownCallsAnswer404JsonOnceAuthenticated() {
    AdminClient admin = new AdminClient(managementPort, TOKEN);
    for (HttpResponse<String> response :
        List.of(
            admin.get("/admin/api/no-such-call"),
            admin.send(admin.request("/admin/api/rooms/shop/settings").DELETE()),
            admin.get("/admin/api"))) {
      assertThat(response.statusCode()).isEqualTo(404);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    }
  }

  @Test
  void gatewaysOwnActuatorEndpointIsNotExposed() {
    AdminClient management = new AdminClient(managementPort, null);

    assertThat(management.get("/actuator/gateway/routes").statusCode()).isEqualTo(404);
    assertThat(management.get("/actuator/gateway/routedefinitions").statusCode()).isEqualTo(404);
    assertThat(management.post("/actuator/gateway/refresh").statusCode()).isEqualTo(404);
    assertThat(management.get("/actuator/health").statusCode()).isEqualTo(200);
    assertThat(origin.findAll(anyRequestedFor(urlPathMatching("/actuator/.*"))))
        .as("nor proxied to the origin by the gateway's catch-all route")
        .isEmpty();
  }

  @Test
  void adminApiAndPageAreNotServedOnTheVisitorPort() {
    AdminClient visitorPort = new AdminClient(port, TOKEN);

    HttpResponse<String> api = visitorPort.get("/admin/api/rooms");
    HttpResponse<String> page = visitorPort.get("/admin");

    assertThat(api.body()).as("the catch-all route's origin answers").contains("Product page");
    assertThat(api.body()).doesNotContain("\"rooms\"");
    assertThat(page.body()).contains("Product page").doesNotContain("Anteroom admin");
  }

  @Test
  void visitorEndpointsAreNotServedOnTheManagementPort() {
    AdminClient management = new AdminClient(managementPort, null);

    assertThat(management.get("/_anteroom/status?room=shop").statusCode()).isEqualTo(404);
    assertThat(management.get("/products/1").statusCode()).isEqualTo(404);
  }

  @Test
  void adminPageIsServedWithoutTokenAndLoadsNothingFromElsewhere() {
    AdminClient management = new AdminClient(managementPort, null);

    HttpResponse<String> page = management.get("/admin");
    HttpResponse<String> script = management.get(AdminPage.SCRIPT);
    HttpResponse<String> charts = management.get(AdminPage.CHART_SCRIPT);
    HttpResponse<String> style = management.get(AdminPage.STYLE);

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValue(AdminPage.CONTENT_SECURITY_POLICY);
    assertThat(page.body()).contains("Anteroom admin");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(charts.statusCode()).isEqualTo(200);
    assertThat(charts.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("text/javascript"));
    assertThat(charts.headers().firstValue("Content-Security-Policy"))
        .hasValue(AdminPage.CONTENT_SECURITY_POLICY);
    assertThat(style.statusCode()).isEqualTo(200);
    for (HttpResponse<String> file : List.of(page, script, charts, style)) {
      // The SVG namespace is a name that createElementNS needs, not an address anything loads.
      String body = file.body().replace("\"http://www.w3.org/2000/svg\"", "");
      assertThat(body).doesNotContain("http://", "https://", "//cdn", "innerHTML", "style=");
    }
  }

  private static void assertUnauthorized(HttpResponse<String> response) {
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Bearer"));
    assertThat(AdminClient.body(response).get("error").stringValue())
        .isEqualTo(AdminAuthentication.UNAUTHORIZED);
  }
}
