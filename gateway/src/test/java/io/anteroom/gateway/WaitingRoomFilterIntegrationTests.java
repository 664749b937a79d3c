package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The filter's decisions, one at a time, through the gateway as it ships. */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.forward-pass-header=Anteroom-Pass",
      "anteroom.gateway.register-flush=50ms"
    })
class WaitingRoomFilterIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired QueueKeys keys;
  @Autowired TokenCodec tokens;
  @Autowired QueueStore store;
  @Autowired RoomPolicies policies;

  @BeforeEach
  void resetOrigin() {
    origin.resetRequests();
    mirror.refresh().block();
  }

  void turnOn(String item) {
    QueueId queue = QueueId.of("shop", item);
    active.activate(queue, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(queue));
  }

  /** Makes sure someone waits in the item's line, so every next visitor waits too. */
  void takeTheFreeSlot(String item) {
    Visitor.lineUpSomeone(port, "/products/" + item);
  }

  @Test
  void offQueueGivesAPassRegistersItAndForwardsAScrubbedRequest() {
    Visitor visitor = new Visitor(port);
    HttpResponse<String> response =
        visitor.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/products/7"))
                .header("Anteroom-Pass", "forged")
                .header("Anteroom-Admin", "yes")
                .header("Cookie", "session=abc; anteroom_pass_shop=garbage; anteroom_x=1")
                .GET());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("Product page");
    String setCookie = String.join("\n", response.headers().allValues("Set-Cookie"));
    assertThat(setCookie)
        // The shop's 5-minute sessions, confirmed every 30 s: a session ends 5m30s after its
        // last confirmed activity.
        .contains("anteroom_pass_shop=", "SameSite=Lax", "Path=/", "Max-Age=330")
        .containsIgnoringCase("HttpOnly")
        .doesNotContainIgnoringCase("Secure");
    LoggedRequest forwarded = origin.findAll(getRequestedFor(urlPathEqualTo("/products/7"))).get(0);
    assertThat(forwarded.getHeader("Cookie")).isEqualTo("session=abc");
    assertThat(forwarded.getHeader("Anteroom-Admin")).isNull();
    assertThat(tokens.readPass(forwarded.getHeader("Anteroom-Pass"), "shop").isValid()).isTrue();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                redis.server().command("ZCARD", keys.running(QueueId.of("shop", "7"))).equals("1"));
  }

  @Test
  void passHolderKeepsPassingWhenTheQueueTurnsOn() {
    Visitor holder = new Visitor(port);
    assertThat(holder.page("/products/3").body()).contains("Product page");
    turnOn("3");
    takeTheFreeSlot("3");

    assertThat(holder.page("/products/3").body()).contains("Product page");
    assertThat(new Visitor(port).page("/products/3").body()).contains("You are in line");
  }

  @Test
  void aPassForOneItemDoesNotOpenAnotherActiveItem() {
    Visitor visitor = new Visitor(port);
    visitor.page("/products/4");
    turnOn("5");
    takeTheFreeSlot("5");

    HttpResponse<String> other = visitor.json("/products/5");

    assertThat(Visitor.text(other.body(), "state")).isEqualTo("waiting");
  }

  @Test
  void waitingVisitorsGetThePageOrTheJsonContractNeverCached() {
    turnOn("6");
    takeTheFreeSlot("6");

    HttpResponse<String> page = new Visitor(port).page("/products/6");
    HttpResponse<String> json = new Visitor(port).json("/products/6");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(page.body()).contains("You are in line", "http-equiv=\"refresh\"");
    assertThat(json.body())
        .matches(
            "\\{\"state\":\"waiting\",\"position\":(\\d+),\"waiting\":\\1,\"etaSeconds\":\\d+,"
                + "\"etaMinSeconds\":\\d+,\"etaMaxSeconds\":\\d+,\"pollAfterSeconds\":\\d+,\"requeued\":false,"
                + "\"admitted\":false,\"placeKeptSeconds\":300}");
  }

  @Test
  void aBodyCannotWaitInLine() {
    turnOn("8");
    takeTheFreeSlot("8");
    origin.resetRequests();

    HttpResponse<String> post =
        new Visitor(port)
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/products/8/buy"))
                    .POST(HttpRequest.BodyPublishers.ofString("qty=1")));

    assertThat(post.statusCode()).isEqualTo(503);
    assertThat(post.headers().firstValue("Retry-After")).isPresent();
    assertThat(post.body()).contains("\"state\":\"unavailable\"");
    assertThat(origin.findAll(anyRequestedFor(urlPathEqualTo("/products/8/buy")))).isEmpty();
  }

  @Test
  void originReleaseHeaderEndsTheSessionAndClearsThePass() {
    origin.stubFor(
        get(urlPathEqualTo("/products/9/done"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Anteroom-Release", "true")
                    .withBody("bye")));
    Visitor visitor = new Visitor(port);
    visitor.page("/products/9");
    QueueId queue = QueueId.of("shop", "9");
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> redis.server().command("ZCARD", keys.running(queue)).equals("1"));

    HttpResponse<String> done = visitor.page("/products/9/done");

    assertThat(done.body()).isEqualTo("bye");
    assertThat(done.headers().firstValue("Anteroom-Release")).isEmpty();
    assertThat(String.join("\n", done.headers().allValues("Set-Cookie")))
        .contains("anteroom_pass_shop=;", "Max-Age=0");
    assertThat(visitor.cookie("anteroom_pass_shop")).isNull();
    assertThat(redis.server().command("ZCARD", keys.running(queue))).isEqualTo("0");
    assertThat(redis.server().command("ZCARD", keys.finished(queue))).isEqualTo("1");
  }

  @Test
  void aPassPastHalfItsLifeIsRenewedAndItsSessionTouched() {
    QueueId queue = QueueId.of("shop", "12");
    String visitor = VisitorIds.newVisitorId();
    store.register(queue, List.of(visitor), policies.configured("shop")).block();
    double registeredAt =
        Double.parseDouble(redis.server().command("ZSCORE", keys.running(queue), visitor));
    TokenCodec fourMinutesAgo =
        new TokenCodec(
            new TokenKeys("main", Map.of("main", Base64.getDecoder().decode(GatewayTestSetup.KEY))),
            "anteroom",
            Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-4)),
            Duration.ofSeconds(5),
            Duration.ofHours(24));
    Visitor holder = new Visitor(port);
    holder.setCookie(
        "anteroom_pass_shop",
        fourMinutesAgo.issuePass(visitor, "shop", List.of("12"), Duration.ofMinutes(5)));

    HttpResponse<String> response = holder.page("/products/12");

    assertThat(response.body()).contains("Product page");
    String setCookie = response.headers().firstValue("Set-Cookie").orElseThrow();
    String renewed = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
    Pass pass = ((Verified.Valid<Pass>) tokens.readPass(renewed, "shop")).value();
    assertThat(pass.visitor()).isEqualTo(visitor);
    assertThat(pass.expiresAt()).isAfter(Instant.now().plus(Duration.ofMinutes(4)));
    assertThat(Double.parseDouble(redis.server().command("ZSCORE", keys.running(queue), visitor)))
        .isGreaterThanOrEqualTo(registeredAt);
  }

  @Test
  void aFreshPassIsNotRenewed() {
    Visitor holder = new Visitor(port);
    holder.page("/products/13");
    String first = holder.cookie("anteroom_pass_shop");

    HttpResponse<String> again = holder.page("/products/13");

    assertThat(again.headers().allValues("Set-Cookie")).isEmpty();
    assertThat(holder.cookie("anteroom_pass_shop")).isEqualTo(first);
  }

  @Test
  void statusEndpointAnswersBadRequestsClearly() {
    Visitor visitor = new Visitor(port);

    assertThat(visitor.json("/_anteroom/status").statusCode()).isEqualTo(400);
    assertThat(visitor.json("/_anteroom/status?room=nope").statusCode()).isEqualTo(400);
    HttpResponse<String> noTicket = visitor.json("/_anteroom/status?room=shop");
    assertThat(noTicket.statusCode()).isEqualTo(404);
    assertThat(noTicket.body()).isEqualTo("{\"state\":\"unknown\"}");
  }

  @Test
  void oddRequestsNeverGetAServerError() {
    turnOn("10");
    Visitor visitor = new Visitor(port);
    List<String> accepts = List.of("*/*;q=abc", "text/html;;", "application/json, text/plain", "");
    for (String accept : accepts) {
      HttpResponse<String> response =
          visitor.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/products/10"))
                  .header("Accept", accept.isEmpty() ? "x" : accept));
      assertThat(response.statusCode()).as("Accept: %s", accept).isLessThan(500);
    }
    for (String path :
        List.of(
            "/products/%2e%2e/10",
            "/products/1%2F0",
            "/products/..%252F10",
            "/products/10;jsessionid=x",
            "/products/" + "x".repeat(3000),
            "/products/%FF%FE")) {
      HttpResponse<String> response = visitor.page(path);
      assertThat(response.statusCode()).as(path).isLessThan(500);
    }
    HttpResponse<String> hugeCookie =
        visitor.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/products/10"))
                .header("Cookie", "anteroom_ticket_shop=" + "A".repeat(12_000)));
    assertThat(hugeCookie.statusCode()).isLessThan(500);
  }
}
