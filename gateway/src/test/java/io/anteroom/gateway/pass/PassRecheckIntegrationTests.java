package io.anteroom.gateway.pass;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * A pass lives no longer than its session, copies included: each item's entitlement ends with the
 * session in that queue, is extended only when Redis confirms the session still runs (at most once
 * per recheck interval), and stops opening once the session has ended by release or idleness. The
 * gateway and the worker's expiry run on one clock the test moves; sessions last 30 s, so they are
 * confirmed every 3 s (a tenth).
 */
@GatewayIntegrationTest(properties = {"anteroom.gateway.forward-pass-header=Anteroom-Pass"})
class PassRecheckIntegrationTests {

  static final MutableClock CLOCK = new MutableClock(Instant.now());
  static final Duration SESSION = Duration.ofSeconds(30);
  static final Duration CHECK = Duration.ofSeconds(3);

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

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;
  @Autowired TokenCodec tokens;

  /** Product 1's queue is on with room for everyone; product 2's is off. Sessions last 30 s. */
  @BeforeEach
  void queueOneIsOn() {
    redis.server().flushAll();
    settings.put("shop", null, Map.of("session-duration", "30s", "max-active", "1000")).block();
    active.activate(one, Activation.MANUAL).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isActive(one)
                    && policies.policy(one).sessionDuration().equals(SESSION)
                    && policies.policy(one).maxActive() == 1000);
    assertThat(policies.policy(one).sessionCheck()).isEqualTo(CHECK);
    origin.resetRequests();
    origin.stubFor(
        get(urlPathEqualTo("/products/1/checkout"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Anteroom-Release", "true")
                    .withBody("paid")));
  }

  @ParameterizedTest(name = "last request {0} ms after a confirmation")
  @ValueSource(longs = {0, 1_500, 2_900})
  void aSessionEndsBetweenOneAndOnePointOneSessionDurationsAfterTheLastRequest(long phase) {
    Visitor visitor = admitted();
    Instant last = null;
    // Browse for a minute, a request every 700 ms, ending `phase` after a confirmation.
    for (int i = 0; i < 86; i++) {
      assertOpens(visitor, "/products/1");
      last = CLOCK.instant();
      CLOCK.advance(Duration.ofMillis(700));
    }
    double confirmed = checks("running");
    CLOCK.advance(CHECK);
    assertOpens(visitor, "/products/1");
    assertThat(checks("running")).isEqualTo(confirmed + 1);
    CLOCK.advance(Duration.ofMillis(phase));
    assertOpens(visitor, "/products/1");
    last = CLOCK.instant();

    Instant ended = stepUntilExpired(visitor);

    assertThat(Duration.between(last, ended))
        .isBetween(SESSION, SESSION.plus(SESSION.dividedBy(10)));
  }

  @Test
  void aCopyOfAReleasedPassStopsOpeningItsItemWithinTheRecheckWhileOpeningAnother() {
    Visitor buyer = admitted();
    Visitor copy = copyOf(buyer);

    HttpResponse<String> paid = buyer.page("/products/1/checkout");
    assertThat(paid.body()).isEqualTo("paid");
    assertThat(store.counts(one).block().released()).isEqualTo(1);
    assertThat(buyer.cookie("anteroom_pass_shop")).isNull();

    // As reproduced on the demo: the copy browses product 2 every 10 s, then tries product 1.
    for (int second = 0; second < 40; second += 10) {
      assertOpens(copy, "/products/2");
      CLOCK.advance(Duration.ofSeconds(10));
    }
    assertOpens(copy, "/products/2");
    CLOCK.advance(Duration.ofSeconds(5));

    assertWaits(copy, "/products/1");
    assertThat(origin.findAll(getRequestedFor(urlPathEqualTo("/products/1")))).hasSize(1);
  }

  @Test
  void aCopyStopsOpeningTheItemAtTheFirstRequestDueForConfirmationAfterTheRelease() {
    Visitor buyer = admitted();
    Visitor copy = copyOf(buyer);
    CLOCK.advance(CHECK.minusMillis(1));
    assertOpens(copy, "/products/1");
    buyer.page("/products/1/checkout");

    CLOCK.advance(Duration.ofMillis(1));

    assertWaits(copy, "/products/1");
  }

  @Test
  void aCopyStopsOpeningTheItemWithinTheRecheckAfterAnOperatorRelease() {
    Visitor visitor = admitted();
    Visitor copy = copyOf(visitor);
    String id = visitorOf(visitor);
    assertThat(store.release(one, id).block()).as("what the admin API's release runs").isTrue();
    CLOCK.advance(CHECK.minusMillis(1));
    assertOpens(copy, "/products/1");

    CLOCK.advance(Duration.ofMillis(1));

    assertWaits(copy, "/products/1");
    assertWaits(visitor, "/products/1");
  }

  @Test
  void aCopyOfASessionThatIdledOutStopsOpeningItsItem() {
    Visitor idle = admitted();
    Visitor copy = copyOf(idle);
    for (int second = 0; second <= 30; second += 10) {
      assertOpens(copy, "/products/2");
      CLOCK.advance(Duration.ofSeconds(10));
    }
    store.expire(one, policies.policy(one)).block();
    assertThat(store.counts(one).block().expired()).isEqualTo(1);

    assertWaits(copy, "/products/1");
    assertWaits(idle, "/products/1");
  }

  @Test
  void aVisitorWhoLeavesAndComesBackWithinTheSessionDoesNotQueueAgain() {
    Visitor visitor = admitted();
    CLOCK.advance(SESSION.minusSeconds(1));
    store.expire(one, policies.policy(one)).block();
    double before = checks("running");

    assertOpens(visitor, "/products/1");
    assertThat(checks("running")).isEqualTo(before + 1);
  }

  @Test
  void anItemWhoseQueueIsOffIsRenewedWithoutAskingRedis() {
    Visitor visitor = new Visitor(port);
    assertOpens(visitor, "/products/2");
    double before = checks("running") + checks("ended") + checks("unknown");
    CLOCK.advance(CHECK);

    assertOpens(visitor, "/products/2");

    assertThat(checks("running") + checks("ended") + checks("unknown")).isEqualTo(before);
    Verified<Pass> renewed = tokens.readPass(visitor.cookie("anteroom_pass_shop"), "shop");
    assertThat(((Verified.Valid<Pass>) renewed).value().entitlement(QueueId.of("shop", "2")))
        .isEqualTo(
            new Entitlement("2", CLOCK.instant().plus(SESSION).plus(CHECK), CLOCK.instant()));
  }

  @Test
  void concurrentRequestsDueForConfirmationShareOneRedisCall() throws Exception {
    Visitor visitor = admitted();
    List<Visitor> copies = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      copies.add(copyOf(visitor));
    }
    CLOCK.advance(CHECK);
    double before = checks("running");

    ExecutorService browsers = Executors.newFixedThreadPool(copies.size());
    try {
      List<Future<HttpResponse<String>>> sent = new ArrayList<>();
      for (Visitor copy : copies) {
        sent.add(browsers.submit(() -> copy.page("/products/1")));
      }
      for (Future<HttpResponse<String>> response : sent) {
        assertThat(response.get().body()).contains("Product page");
      }
    } finally {
      browsers.shutdownNow();
    }

    assertThat(checks("running")).isEqualTo(before + 1);
  }

  @Test
  void aStalePassSentAgainAndAgainCostsOneRedisCallPerRecheck() {
    Visitor buyer = admitted();
    Visitor copy = copyOf(buyer);
    String stale = copy.cookie("anteroom_pass_shop");
    CLOCK.advance(Duration.ofSeconds(2));
    buyer.page("/products/1/checkout");
    CLOCK.advance(Duration.ofSeconds(1));
    double before = checks("ended");

    for (int i = 0; i < 10; i++) {
      copy.setCookie("anteroom_pass_shop", stale);
      assertOpens(copy, "/products/2");
      copy.setCookie("anteroom_pass_shop", stale);
      assertWaits(copy, "/products/1");
    }
    // The release went through this gateway, which knows of it without asking Redis.
    assertThat(checks("ended")).isEqualTo(before);

    CLOCK.advance(CHECK);
    for (int i = 0; i < 10; i++) {
      copy.setCookie("anteroom_pass_shop", stale);
      assertWaits(copy, "/products/1");
    }
    assertThat(checks("ended")).isEqualTo(before + 1);
  }

  /**
   * A visitor let in at once to product 1 (the line is empty and there is room), and someone
   * waiting after them, so everyone else waits too: nobody admits from the line here.
   */
  private Visitor admitted() {
    Visitor visitor = new Visitor(port);
    assertOpens(visitor, "/products/1");
    assertThat(store.counts(one).block().running()).isEqualTo(1);
    Visitor.lineUpSomeone(port, "/products/1");
    return visitor;
  }

  private String visitorOf(Visitor visitor) {
    Verified<Pass> pass = tokens.readPass(visitor.cookie("anteroom_pass_shop"), "shop");
    assertThat(pass.isValid()).isTrue();
    return ((Verified.Valid<Pass>) pass).value().visitor();
  }

  /** Another browser holding a copy of the visitor's cookies. */
  private Visitor copyOf(Visitor visitor) {
    Visitor copy = new Visitor(port);
    copy.setCookie("anteroom_pass_shop", visitor.cookie("anteroom_pass_shop"));
    return copy;
  }

  /** Moves the clock in steps of 100 ms, expiring sessions as the worker would, until gone. */
  private Instant stepUntilExpired(Visitor visitor) {
    for (int step = 0; step < 1000; step++) {
      CLOCK.advance(Duration.ofMillis(100));
      store.expire(one, policies.policy(one)).block();
      if (store.counts(one).block().running() == 0) {
        assertWaits(visitor, "/products/1");
        return CLOCK.instant();
      }
    }
    throw new AssertionError("the session never ended");
  }

  private static void assertOpens(Visitor visitor, String path) {
    HttpResponse<String> response = visitor.page(path);
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    assertThat(response.body()).as(path).contains("Product page");
  }

  private static void assertWaits(Visitor visitor, String path) {
    HttpResponse<String> response = visitor.json(path);
    assertThat(Visitor.text(response.body(), "state")).as(path).isIn("waiting", "paused");
  }

  private double checks(String outcome) {
    Counter counter =
        meters
            .find("anteroom.gateway.pass.checks")
            .tags("room", "shop", "outcome", outcome)
            .counter();
    return counter == null ? 0 : counter.count();
  }
}
