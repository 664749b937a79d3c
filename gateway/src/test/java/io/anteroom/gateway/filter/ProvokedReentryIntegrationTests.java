package io.anteroom.gateway.filter;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.SlowBody;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.VisitorStatus;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Re-entry is for visitors the origin itself failed right after the line admitted them; nobody can
 * provoke it from outside. A body dripped past the gateway's response timeout is the client's
 * doing, not the origin's (the origin's own failure once it has the body is still its own); a
 * ticket kept after admission finds its holder running, which is no new admission; and a pass given
 * while the queue was off names no admission at the status endpoint. The gateway runs on a clock
 * the test moves; its response timeout is 2 s.
 */
@GatewayIntegrationTest(
    properties = "spring.cloud.gateway.server.webflux.httpclient.response-timeout=2s")
class ProvokedReentryIntegrationTests {

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

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired QueueStore store;
  @Autowired QueueKeys keys;
  @Autowired MeterRegistry meters;
  @Autowired TokenCodec tokens;
  double reenteredBefore;

  @BeforeEach
  void queueOneIsOn() {
    redis.server().flushAll();
    reenteredBefore = reenteredSoFar();
    active.activate(one, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(one));
    origin.resetAll();
    origin.stubFor(
        any(urlPathMatching("/.*"))
            .willReturn(aResponse().withStatus(200).withBody("<h1>Product page</h1>")));
  }

  @Test
  void aSlowBodyTimedOutByTheGatewayKeepsTheVisitorsAdmission() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/1").statusCode()).isEqualTo(200);
    Visitor.lineUpSomeone(port, "/products/1");
    String id = visitorOf(visitor);

    // A 3 s body against the gateway's 2 s response timeout: the gateway gives up, not the origin.
    int status = slowCart(visitor, Duration.ofSeconds(3));

    assertThat(status).isNotEqualTo(303);
    assertThat(reentered()).isZero();
    assertThat(redis.server().command("EXISTS", keys.reentries(one))).isEqualTo("0");
    assertThat(store.status(one, id).block().state()).isEqualTo(VisitorStatus.State.ADMITTED);
  }

  @Test
  void theOriginsOwnFailureAfterASlowBodySendsTheVisitorBack() {
    Visitor visitor = new Visitor(port);
    assertThat(visitor.page("/products/1").statusCode()).isEqualTo(200);
    origin.stubFor(
        any(urlPathEqualTo("/products/1/cart"))
            .willReturn(aResponse().withStatus(503).withBody("origin says 503")));

    // A body dripped over 1 s, read whole by the gateway; the origin then fails at once.
    int status = slowCart(visitor, Duration.ofSeconds(1));

    assertThat(status).isEqualTo(303);
    assertThat(reentered()).isOne();
  }

  @Test
  void aTicketHolderFoundRunningAgainKeepsTheAdmissionTheLineGave() {
    Visitor.lineUpSomeone(port, "/products/1");
    Visitor visitor = new Visitor(port);
    assertThat(Visitor.text(visitor.json("/products/1").body(), "state")).isEqualTo("waiting");
    String ticket = visitor.cookie(TICKET);
    admitFromLine();
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    Instant admitted = admissionOf(visitor);

    // The ticket kept past the grace: its holder is found running, and asks again.
    CLOCK.advance(Duration.ofSeconds(40));
    visitor.clearCookies();
    visitor.setCookie(TICKET, ticket);
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    failing("/products/1/cart", 503);

    assertThat(admissionOf(visitor)).isEqualTo(admitted);
    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(503);
    assertThat(reentered()).isZero();
  }

  @Test
  void aTicketHolderWhoseSessionWasConfirmedSinceKeepsTheAdmissionTheLineGave() {
    Visitor.lineUpSomeone(port, "/products/1");
    Visitor visitor = new Visitor(port);
    assertThat(Visitor.text(visitor.json("/products/1").body(), "state")).isEqualTo("waiting");
    String ticket = visitor.cookie(TICKET);
    admitFromLine();
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    Instant admitted = admissionOf(visitor);

    // Browsing past the grace moves the session's activity on; then the kept ticket asks again.
    CLOCK.advance(Duration.ofSeconds(40));
    assertThat(store.touch(one, visitorOf(visitor)).block()).isTrue();
    visitor.clearCookies();
    visitor.setCookie(TICKET, ticket);
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    failing("/products/1/cart", 503);

    assertThat(admissionOf(visitor)).isEqualTo(admitted);
    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(503);
    assertThat(reentered()).isZero();
  }

  @Test
  void aPassGivenWhileTheQueueIsOffNamesNoAdmissionAtTheStatusEndpoint() {
    Visitor.lineUpSomeone(port, "/products/1");
    Visitor visitor = new Visitor(port);
    assertThat(Visitor.text(visitor.json("/products/1").body(), "state")).isEqualTo("waiting");
    String ticket = visitor.cookie(TICKET);
    String id = ((Verified.Valid<Ticket>) tokens.readTicket(ticket, "shop")).value().visitor();
    admitFromLine();
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    // The origin ends the session; then the queue goes off, and the ticket's holder comes back.
    assertThat(store.release(one, id).block()).isTrue();
    active.deactivate(one).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> !mirror.isActive(one));
    CLOCK.advance(Duration.ofSeconds(1));
    visitor.clearCookies();
    visitor.setCookie(TICKET, ticket);
    assertThat(visitor.page("/products/1").statusCode()).isEqualTo(200);
    assertThat(entitlementAdmission(visitor, one)).as("a pass given while off").isNull();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> store.status(one, id).block().state() == VisitorStatus.State.ADMITTED);

    // The queue on again: the kept ticket asks the status endpoint, which finds the holder running.
    active.activate(one, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(one));
    visitor.clearCookies();
    visitor.setCookie(TICKET, ticket);
    assertThat(Visitor.text(visitor.json("/_anteroom/status?room=shop").body(), "state"))
        .isEqualTo("admitted");
    failing("/products/1/cart", 503);

    assertThat(entitlementAdmission(visitor, one)).as("the pass the status endpoint gave").isNull();
    assertThat(visitor.page("/products/1/cart").statusCode()).isEqualTo(503);
    assertThat(reentered()).isZero();
  }

  /** {@code visitor}'s POST to the cart, its 30 bytes dripped over {@code over}; the status. */
  private int slowCart(Visitor visitor, Duration over) {
    return SlowBody.send(
        port, "POST", "/products/1/cart", PASS + "=" + visitor.cookie(PASS), 30, over);
  }

  /** The line admits its head, the bucket having refilled. */
  private void admitFromLine() {
    CLOCK.advance(Duration.ofSeconds(2));
    assertThat(store.admit(one, policies.policy(one)).block().admitted()).isPositive();
    CLOCK.advance(Duration.ofSeconds(2));
    store.admit(one, policies.policy(one)).block();
  }

  private void failing(String path, int status) {
    origin.stubFor(
        get(urlPathEqualTo(path))
            .willReturn(aResponse().withStatus(status).withBody("origin says " + status)));
  }

  private Pass passOf(Visitor visitor) {
    Verified<Pass> pass = tokens.readPass(visitor.cookie(PASS), "shop");
    assertThat(pass.isValid()).isTrue();
    return ((Verified.Valid<Pass>) pass).value();
  }

  private String visitorOf(Visitor visitor) {
    return passOf(visitor).visitor();
  }

  private Instant admissionOf(Visitor visitor) {
    Instant admitted = entitlementAdmission(visitor, one);
    assertThat(admitted).isNotNull();
    return admitted;
  }

  private Instant entitlementAdmission(Visitor visitor, QueueId queue) {
    return passOf(visitor).entitlement(queue).admitted();
  }

  private double reentered() {
    return reenteredSoFar() - reenteredBefore;
  }

  private double reenteredSoFar() {
    Counter counter = meters.find("anteroom.gateway.reentered").tags("room", "shop").counter();
    return counter == null ? 0 : counter.count();
  }
}
