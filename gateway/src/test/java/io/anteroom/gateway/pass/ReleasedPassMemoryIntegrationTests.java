package io.anteroom.gateway.pass;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.Mode;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * A gateway's memory of sessions released through it is never wiped by other traffic: a copy of a
 * released pass stays stopped at once however many passes are confirmed after the release. The
 * gateway's {@link SessionChecks} keeps at most {@value #KEPT} confirmations here (production keeps
 * {@value SessionChecks#MAX_KEPT}), so a handful of pass holders fill it; sessions last 30 s and
 * are confirmed every 3 s, on one clock the test moves.
 */
@GatewayIntegrationTest
class ReleasedPassMemoryIntegrationTests {

  static final MutableClock CLOCK = new MutableClock(Instant.now());
  static final Duration CHECK = Duration.ofSeconds(3);
  static final int KEPT = 20;
  static final int ENDS = 4;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @TestConfiguration
  static class SmallMemory {
    @Bean
    @Primary
    Clock movableClock() {
      return CLOCK;
    }

    @Bean
    @Primary
    SessionChecks smallSessionChecks(QueueStore store, RedisGuard guard, MeterRegistry meters) {
      return new SessionChecks(store, guard, CLOCK, meters, KEPT, ENDS);
    }
  }

  final QueueId one = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired MeterRegistry meters;
  @Autowired SessionChecks checks;

  /** Product 1's queue is on and lets everyone in at once; the origin releases on checkout. */
  @BeforeEach
  void queueOneIsOnAndLetsEveryoneIn() {
    redis.server().flushAll();
    settings
        .put(
            "shop",
            null,
            Map.of("session-duration", "30s", "max-active", "1000", "admit-per-second", "1000"))
        .block();
    active.activate(one, Activation.MANUAL).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isActive(one)
                    && policies.policy(one).sessionCheck().equals(CHECK)
                    && policies.policy(one).admitPerSecond() == 1000
                    && policies.policy(one).mode() == Mode.QUEUE);
    origin.stubFor(
        get(urlPathEqualTo("/products/1/checkout"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Anteroom-Release", "true")
                    .withBody("paid")));
  }

  @Test
  void confirmWhenOtherPassesFillTheMemoryThenACopyOfAReleasedPassStaysStopped() {
    List<Visitor> others = admitted(KEPT + 5);
    CLOCK.advance(Duration.ofSeconds(2));
    Visitor buyer = admitted(1).get(0);
    Visitor copy = copyOf(buyer);
    assertThat(buyer.page("/products/1/checkout").body()).isEqualTo("paid");
    assertThat(store.counts(one).block().released()).isEqualTo(1);
    nobodyNewGetsIn();

    // The others' passes are due, the copy's is not: each other confirmation is one more entry.
    CLOCK.advance(Duration.ofSeconds(1));
    double before = checks("running");
    for (Visitor other : others) {
      assertOpens(other, "/products/1");
    }
    assertThat(checks("running")).isEqualTo(before + others.size());

    assertStopped(copy);
  }

  @Test
  void releaseWhenEndsOutgrowTheMemoryThenPassesFromBeforeTheForgottenEndsAskRedis() {
    Visitor keeper = admitted(1).get(0);
    Visitor buyer = admitted(1).get(0);
    Visitor copy = copyOf(buyer);
    assertThat(buyer.page("/products/1/checkout").body()).isEqualTo("paid");
    for (Visitor other : admitted(ENDS + 2)) {
      CLOCK.advance(Duration.ofMillis(10));
      assertThat(other.page("/products/1/checkout").body()).isEqualTo("paid");
    }
    assertThat(store.counts(one).block().released()).isEqualTo(ENDS + 3);
    assertThat(checks.endsKept()).isLessThanOrEqualTo(ENDS);
    nobodyNewGetsIn();
    double running = checks("running");
    double ended = checks("ended");

    assertStopped(copy);
    assertOpens(keeper, "/products/1");
    assertOpens(keeper, "/products/1");

    // Neither pass was due: each asked Redis once, as both came from before a forgotten end.
    assertThat(checks("ended")).isEqualTo(ended + 1);
    assertThat(checks("running")).isEqualTo(running + 1);
  }

  /** {@code count} visitors let in to product 1 at once. */
  private List<Visitor> admitted(int count) {
    long running = store.counts(one).block().running();
    List<Visitor> visitors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Visitor visitor = new Visitor(port);
      assertOpens(visitor, "/products/1");
      visitors.add(visitor);
    }
    assertThat(store.counts(one).block().running()).isEqualTo(running + count);
    return visitors;
  }

  /** Pauses product 1: pass holders keep their sessions, everyone else waits. */
  private void nobodyNewGetsIn() {
    settings.put("shop", "1", Map.of("mode", "paused")).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> policies.policy(one).mode() == Mode.PAUSED);
  }

  /** Another browser holding a copy of the visitor's cookies. */
  private Visitor copyOf(Visitor visitor) {
    Visitor copy = new Visitor(port);
    copy.setCookie("anteroom_pass_shop", visitor.cookie("anteroom_pass_shop"));
    return copy;
  }

  private static void assertOpens(Visitor visitor, String path) {
    HttpResponse<String> response = visitor.page(path);
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    assertThat(response.body()).as(path).contains("Product page");
  }

  /** The copy's request to product 1 never reaches the origin: it meets the paused line. */
  private static void assertStopped(Visitor copy) {
    int served = served("/products/1");
    HttpResponse<String> response = copy.json("/products/1");
    assertThat(served("/products/1")).as("product 1 served to the copy").isEqualTo(served);
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("paused");
  }

  private static int served(String path) {
    return origin.findAll(getRequestedFor(urlPathEqualTo(path))).size();
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
