package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.test.autoconfigure.AutoConfigureMetrics;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The circuit breaker in front of Redis, as shipped: its settings come from application.yml; a
 * killed Redis opens it (seen in a Prometheus scrape of the management port), its refusals get the
 * room's failure-policy answer as a Redis error does, pass holders keep passing, and once Redis is
 * back it closes by itself and newcomers join the line again.
 */
@GatewayIntegrationTest
@AutoConfigureMetrics
@SystemTest
class RedisBreakerIntegrationTests {

  private static final Pattern STATE =
      Pattern.compile(
          "(?m)^resilience4j_circuitbreaker_state\\{name=\"redis\",state=\"([a-z_]+)\"} 1\\.0$");

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.persistent();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired CircuitBreakerRegistry breakers;
  @Autowired AnteroomProperties anteroom;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;

  /** Waits for Redis, brought back after a test that killed it, then starts from closed. */
  @BeforeEach
  void closeTheBreaker() {
    await()
        .atMost(Duration.ofSeconds(15))
        .ignoreExceptions()
        .until(() -> active.list().block() != null);
    breaker().reset();
  }

  @Test
  void breakerRunsOnTheShippedSettingsNotTheLibraryDefaults() {
    CircuitBreakerConfig config = breaker().getCircuitBreakerConfig();

    assertThat(config.getSlidingWindowType()).isEqualTo(SlidingWindowType.TIME_BASED);
    assertThat(config.getSlidingWindowSize()).as("seconds").isEqualTo(10);
    assertThat(config.getMinimumNumberOfCalls()).isEqualTo(20);
    assertThat(config.getFailureRateThreshold()).isEqualTo(50f);
    assertThat(config.getSlowCallRateThreshold()).isEqualTo(80f);
    assertThat(config.getSlowCallDurationThreshold())
        .isEqualTo(Duration.ofMillis(250))
        .isLessThan(anteroom.redis().commandTimeout());
    assertThat(config.getWaitIntervalFunctionInOpenState().apply(1)).isEqualTo(2_000L);
    assertThat(config.isAutomaticTransitionFromOpenToHalfOpenEnabled()).isTrue();
    assertThat(config.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(5);
    assertThat(config.isWritableStackTraceEnabled()).isFalse();
    assertThat(scrapedState()).isEqualTo("closed");
  }

  @Test
  void openBreakerGetsTheFailurePolicyAnswerWhileRedisIsUp() {
    QueueId held = QueueId.of("shop", "5");
    QueueId lenient = QueueId.of("shop", "6");
    Visitor holder = new Visitor(port);
    assertThat(holder.page("/products/5").body()).as("pass while off").contains("Product page");
    turnOn(held, lenient);
    Visitor heldWaiter = waiter("/products/5");
    Visitor lenientWaiter = waiter("/products/6");
    origin.resetRequests();

    breaker().transitionToForcedOpenState();
    try {
      assertUnavailable(new Visitor(port).json("/products/5"));
      assertLetThroughMarked(new Visitor(port).page("/products/6"), "/products/6");
      HttpResponse<String> heldPoll = heldWaiter.json("/_anteroom/status?room=shop");
      assertThat(heldPoll.statusCode()).isEqualTo(503);
      assertThat(Visitor.text(heldPoll.body(), "state")).isEqualTo("unavailable");
      HttpResponse<String> lenientPoll = lenientWaiter.json("/_anteroom/status?room=shop");
      assertThat(lenientPoll.statusCode()).as("the page loads its URL again").isEqualTo(404);
      assertThat(holder.page("/products/5").body()).as("pass holder").contains("Product page");
      assertThat(breaker().getMetrics().getNumberOfNotPermittedCalls())
          .as("two newcomers and two polls refused; the holder needed no Redis")
          .isEqualTo(4);
      assertThat(scrapedState()).isEqualTo("forced_open");
    } finally {
      breaker().transitionToClosedState();
    }

    assertThat(Visitor.text(new Visitor(port).json("/products/5").body(), "state"))
        .isEqualTo("waiting");
  }

  @Test
  void redisKilledOpensTheBreakerAndRedisBackClosesIt() {
    QueueId held = QueueId.of("shop", "1");
    QueueId lenient = QueueId.of("shop", "4");
    Visitor holder = new Visitor(port);
    assertThat(holder.page("/products/1").body()).as("pass while off").contains("Product page");
    turnOn(held, lenient);
    Visitor.lineUpSomeone(port, "/products/1");
    Visitor.lineUpSomeone(port, "/products/4");
    assertThat(scrapedState()).isEqualTo("closed");
    origin.resetRequests();

    redis.server().kill();

    List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              statuses.add(new Visitor(port).json("/products/1").statusCode());
              return "open".equals(scrapedState());
            });
    assertThat(statuses).as("newcomers until it opened").containsOnly(503);
    long refused = breaker().getMetrics().getNumberOfNotPermittedCalls();
    // More than the calls a half-open breaker lets try, so some are refused whatever its state.
    for (int i = 0; i < 8; i++) {
      assertUnavailable(new Visitor(port).json("/products/1"));
    }
    assertLetThroughMarked(new Visitor(port).page("/products/4"), "/products/4");
    assertThat(holder.page("/products/1").body()).as("pass holder").contains("Product page");
    assertThat(breaker().getMetrics().getNumberOfNotPermittedCalls()).isGreaterThan(refused);

    redis.server().restart();

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () -> {
              HttpResponse<String> newcomer = new Visitor(port).json("/products/1");
              assertThat(newcomer.statusCode()).isIn(200, 503);
              assertThat(Visitor.text(newcomer.body(), "state")).isEqualTo("waiting");
              assertThat(scrapedState()).isEqualTo("closed");
            });
    assertThat(holder.page("/products/1").body()).as("pass holder").contains("Product page");
  }

  private CircuitBreaker breaker() {
    return breakers.circuitBreaker(RedisGuard.BREAKER);
  }

  /** Turns the queues on, the second one failing open, and waits until the gateway knows. */
  private void turnOn(QueueId closed, QueueId open) {
    settings.put(open.room(), open.item(), Map.of("failure-policy", "open")).block();
    active.activate(closed, Activation.MANUAL).block();
    active.activate(open, Activation.MANUAL).block();
    await()
        .atMost(Duration.ofSeconds(5))
        .until(
            () ->
                mirror.isActive(closed)
                    && mirror.isActive(open)
                    && policies.policy(open).failurePolicy() == FailurePolicy.OPEN);
  }

  /** A visitor holding a place in the line at {@code path}. */
  private Visitor waiter(String path) {
    Visitor.lineUpSomeone(port, path);
    Visitor waiter = new Visitor(port);
    assertThat(Visitor.text(waiter.json(path).body(), "state")).isEqualTo("waiting");
    return waiter;
  }

  private static void assertUnavailable(HttpResponse<String> response) {
    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).isPresent();
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("unavailable");
  }

  private static void assertLetThroughMarked(HttpResponse<String> response, String path) {
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("Product page");
    assertThat(response.headers().allValues("Set-Cookie"))
        .noneMatch(c -> c.startsWith("anteroom_pass_"));
    origin.verify(
        getRequestedFor(urlPathEqualTo(path))
            .withHeader("Anteroom-Degraded", equalTo("line-unavailable")));
  }

  /** The breaker's state as a scrape of the management port's Prometheus endpoint reports it. */
  private String scrapedState() {
    HttpResponse<String> scrape =
        new Visitor(managementPort).get("/actuator/prometheus", "text/plain");
    assertThat(scrape.statusCode()).isEqualTo(200);
    Matcher state = STATE.matcher(scrape.body());
    assertThat(state.find()).as("state of the redis breaker in:%n%s", scrape.body()).isTrue();
    return state.group(1);
  }
}
