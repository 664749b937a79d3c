package io.anteroom.gateway.filter;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.VisitorStatus;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * A visitor the line admitted, whose first requests the origin fails (502, 503, 504) within the
 * room's reentry-grace, goes back to the front of the line: a 303 to the same address, the pass
 * without the item, a ticket for the place, and a waiting page that says they go first. Anything
 * else goes to the visitor as the origin sent it, and nobody who was not admitted by the line can
 * make use of it. The gateway runs on a clock the test moves; the line admits only when the test
 * says so.
 */
@GatewayIntegrationTest(
    properties = "spring.cloud.gateway.server.webflux.httpclient.response-timeout=2s")
class ReentryIntegrationTests {

  static final MutableClock CLOCK = new MutableClock(Instant.now());
  static final String PASS = "anteroom_pass_shop";
  static final String TICKET = "anteroom_ticket_shop";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @TestConfiguration
  static class MovableClock {
    @Bean
    @Primary
    Clock movableClock() {
      return CLOCK;
    }
  }

  final QueueId one = QueueId.of("shop", "1");
  final QueueId two = QueueId.of("shop", "2");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;
  @Autowired TokenCodec tokens;
  double reenteredBefore;

  /** Product 1's queue is on, product 2's off; sessions of 5 minutes; re-entry as shipped. */
  @BeforeEach
  void queueOneIsOn() {
    redis.server().flushAll();
    reenteredBefore = reenteredSoFar();
    roomSettings(Map.of());
    active.activate(one, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(one));
    origin.resetAll();
    origin.stubFor(
        any(urlPathMatching("/.*"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/html")
                    .withBody("<h1>Product page</h1>")));
  }

  void roomSettings(Map<String, String> more) {
    Map<String, String> values =
        new java.util.HashMap<>(Map.of("session-duration", "5m", "max-active", "1000"));
    values.putAll(more);
    settings.put("shop", null, values).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                policies.policy(one).maxActive() == 1000
                    && String.valueOf(policies.policy(one).reentry().max())
                        .equals(values.getOrDefault("reentry-max", "2")));
  }

  @Test
  void anAdmittedVisitorTheOriginFailsWithinTheGraceGoesBackToTheFront() {
    Visitor visitor = admitted();
    String id = visitorOf(visitor);
    failing("/products/1/cart", 503);
    CLOCK.advance(Duration.ofSeconds(29));

    HttpResponse<String> answer = visitor.page("/products/1/cart?step=2");

    assertThat(answer.statusCode()).isEqualTo(303);
    assertThat(answer.headers().firstValue("Location")).hasValue("/products/1/cart?step=2");
    assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(visitor.cookie(PASS)).isNull();
    assertThat(visitor.cookie(TICKET)).isNotNull();
    VisitorStatus status = store.status(one, id).block();
    assertThat(status.state()).isEqualTo(VisitorStatus.State.WAITING);
    assertThat(status.position()).isEqualTo(1);
    assertThat(status.front()).isTrue();
    assertThat(reentered()).isEqualTo(1);

    HttpResponse<String> page = visitor.page("/products/1/cart?step=2");
    HttpResponse<String> poll = visitor.json("/_anteroom/status?room=shop");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("id=\"front\" >")
        .contains("you keep your turn and will be let in again first");
    assertThat(poll.body()).contains("\"front\":true");
    assertThat(Visitor.field(poll.body(), "position")).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {502, 504})
  void theOtherGatewayFailuresSendTheVisitorBackToo(int status) {
    Visitor visitor = admitted();
    failing("/products/1/cart", status);

    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(303);
  }

  @Test
  void anOriginThatDoesNotAnswerInTimeSendsTheVisitorBackWithoutABody() {
    Visitor visitor = admitted();
    origin.stubFor(
        get(urlPathEqualTo("/products/1/cart"))
            .willReturn(aResponse().withStatus(200).withFixedDelay(5_000).withBody("late")));

    HttpResponse<String> answer = visitor.page("/products/1/cart");

    assertThat(answer.statusCode()).isEqualTo(303);
    assertThat(answer.body()).isEmpty();
    assertThat(answer.headers().firstValue("Location")).hasValue("/products/1/cart");
    assertThat(visitor.cookie(TICKET)).isNotNull();
    assertThat(reentered()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(ints = {500, 404})
  void anotherErrorOfTheOriginGoesToTheVisitorAsItIs(int status) {
    Visitor visitor = admitted();
    failing("/products/1/cart", status);

    HttpResponse<String> answer = visitor.page("/products/1/cart");

    assertThat(answer.statusCode()).isEqualTo(status);
    assertThat(answer.body()).isEqualTo("origin says " + status);
    assertThat(visitor.cookie(PASS)).isNotNull();
    assertStillRunning(visitor);
  }

  @Test
  void aFailureOnceTheGraceHasPassedGoesToTheVisitorAsItIs() {
    Visitor visitor = admitted();
    failing("/products/1/cart", 503);
    CLOCK.advance(Duration.ofSeconds(30));

    HttpResponse<String> answer = visitor.page("/products/1/cart");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).isEqualTo("origin says 503");
    assertStillRunning(visitor);
  }

  @Test
  void aVisitorGoesBackAtMostReentryMaxTimesThenSeesTheOriginsAnswer() {
    Visitor visitor = admitted();
    String id = visitorOf(visitor);
    failing("/products/1/cart", 503);

    for (int time = 1; time <= 2; time++) {
      assertThat(visitor.page("/products/1/cart").statusCode()).as("time %d", time).isEqualTo(303);
      admitFromLine();
      assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
          .isEqualTo("admitted");
    }
    HttpResponse<String> third = visitor.page("/products/1/cart");

    assertThat(third.statusCode()).isEqualTo(503);
    assertThat(redis.server().command("HGET", keys.reentries(one), id)).isEqualTo("2");
    assertThat(reentered()).isEqualTo(2);
    assertStillRunning(visitor);
  }

  @Test
  void reentryMaxZeroTurnsItOff() {
    roomSettings(Map.of("reentry-max", "0"));
    Visitor visitor = admitted();
    failing("/products/1/cart", 503);

    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(503);
    assertStillRunning(visitor);
  }

  @Test
  void nobodyTheLineDidNotAdmitCanMakeUseOfIt() {
    admitted();
    failing("/products/1/cart", 503);
    Visitor newcomer = new Visitor(port);
    Visitor ticketHolder = new Visitor(port);
    ticketHolder.json("/products/1");
    Visitor forger = new Visitor(port);
    TokenCodec other =
        new TokenCodec(
            new TokenKeys("main", Map.of("main", new byte[32])),
            "anteroom",
            CLOCK,
            Duration.ofSeconds(5),
            Duration.ofHours(1));
    forger.setCookie(
        PASS,
        other.issuePass("vQx3n0kq7S2mB8yZfL1aPg", "shop", List.of("1"), Duration.ofMinutes(5)));

    for (Visitor visitor : List.of(newcomer, ticketHolder, forger)) {
      HttpResponse<String> answer = visitor.json("/products/1/cart");
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(Visitor.text(answer.body(), "state")).isEqualTo("waiting");
    }
    assertThat(redis.server().command("EXISTS", keys.reentries(one))).isEqualTo("0");
    assertThat(reentered()).isZero();
  }

  @Test
  void aPassGivenWhileTheQueueWasOffNeverGoesBack() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/2").statusCode()).isEqualTo(200);
    active.activate(two, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(two));
    failing("/products/2/cart", 503);

    HttpResponse<String> answer = visitor.page("/products/2/cart");

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(redis.server().command("EXISTS", keys.reentries(two))).isEqualTo("0");
  }

  @Test
  void aCopyOfThePassStopsAtOnceOnThisGatewayAndGetsNoSessionBack() {
    Visitor visitor = admitted();
    String id = visitorOf(visitor);
    Visitor copy = new Visitor(port);
    copy.setCookie(PASS, visitor.cookie(PASS));
    failing("/products/1/cart", 503);
    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(303);
    int forwarded = origin.getAllServeEvents().size();

    HttpResponse<String> atOnce = copy.json("/products/1");
    CLOCK.advance(policies.policy(one).sessionCheck());
    HttpResponse<String> due = copy.json("/products/1");

    assertThat(Visitor.text(atOnce.body(), "state")).isEqualTo("waiting");
    assertThat(Visitor.text(due.body(), "state")).isEqualTo("waiting");
    assertThat(origin.getAllServeEvents()).hasSize(forwarded);
    assertThat(store.status(one, id).block().state()).isEqualTo(VisitorStatus.State.WAITING);
    assertThat(store.counts(one).block().running()).isZero();
  }

  @Test
  void aCopyOfThePassUsedElsewhereIsRefusedOnceDue() {
    Visitor visitor = admitted();
    String id = visitorOf(visitor);
    Pass pass = ((Verified.Valid<Pass>) tokens.readPass(visitor.cookie(PASS), "shop")).value();
    failing("/products/1/cart", 503);
    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(303);
    CLOCK.advance(policies.policy(one).sessionCheck());

    // What another gateway's check runs for the copy: the touch script, with the pass's times.
    boolean running =
        store.touch(one, id, pass.entitlement(one).checked(), policies.policy(one)).block();

    assertThat(running).isFalse();
    assertThat(store.status(one, id).block().state()).isEqualTo(VisitorStatus.State.WAITING);
  }

  @Test
  void twoFailingRequestsAtOnceGiveOnePlace() throws Exception {
    Visitor visitor = admitted();
    String id = visitorOf(visitor);
    origin.stubFor(
        get(urlPathEqualTo("/products/1/cart"))
            .willReturn(aResponse().withStatus(503).withFixedDelay(300).withBody("busy")));

    List<HttpResponse<String>> answers;
    ExecutorService both = Executors.newFixedThreadPool(2);
    try {
      Future<HttpResponse<String>> first = both.submit(() -> visitor.page("/products/1/cart"));
      Future<HttpResponse<String>> second = both.submit(() -> visitor.page("/products/1/cart"));
      answers = List.of(first.get(), second.get());
    } finally {
      both.shutdownNow();
    }

    assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(303, 303);
    assertThat(redis.server().command("HGET", keys.reentries(one), id)).isEqualTo("1");
    assertThat(reentered()).isEqualTo(1);
    assertThat(redis.server().command("ZCARD", keys.waiting(one))).isEqualTo("2");
  }

  /**
   * A visitor let in at once to product 1 (the line is empty and there is room), and someone
   * waiting after them, so everyone else waits too.
   */
  private Visitor admitted() {
    Visitor visitor = new Visitor(port);
    HttpResponse<String> in = visitor.page("/products/1");
    assertThat(in.statusCode()).isEqualTo(200);
    assertThat(in.body()).contains("Product page");
    Visitor.lineUpSomeone(port, "/products/1");
    return visitor;
  }

  /** The line admits its head, the bucket having refilled. */
  private void admitFromLine() {
    CLOCK.advance(Duration.ofSeconds(2));
    assertThat(store.admit(one, policies.policy(one)).block().admitted()).isPositive();
  }

  private void failing(String path, int status) {
    origin.stubFor(
        get(urlPathEqualTo(path))
            .willReturn(aResponse().withStatus(status).withBody("origin says " + status)));
  }

  private String visitorOf(Visitor visitor) {
    Verified<Pass> pass = tokens.readPass(visitor.cookie(PASS), "shop");
    assertThat(pass.isValid()).isTrue();
    return ((Verified.Valid<Pass>) pass).value().visitor();
  }

  private void assertStillRunning(Visitor visitor) {
    String id = visitorOf(visitor);
    assertThat(store.status(one, id).block().state()).isEqualTo(VisitorStatus.State.ADMITTED);
    assertThat(visitor.page("/products/1").body()).contains("Product page");
  }

  /** Re-entries this gateway counted in this test. */
  private double reentered() {
    return reenteredSoFar() - reenteredBefore;
  }

  private double reenteredSoFar() {
    Counter counter = meters.find("anteroom.gateway.reentered").tags("room", "shop").counter();
    return counter == null ? 0 : counter.count();
  }
}
