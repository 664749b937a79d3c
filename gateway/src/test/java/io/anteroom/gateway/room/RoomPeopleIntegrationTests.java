package io.anteroom.gateway.room;

import static io.anteroom.gateway.room.RoomLimitsIntegrationTests.passed;
import static io.anteroom.gateway.room.RoomLimitsIntegrationTests.waits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The room counts people, not page views, through the gateway alone (no worker runs, so nothing but
 * the gateway's own calls keeps the count): a room of three active users whose products' queues are
 * off, sessions of one minute (an idle limit of 66 s, confirmed every 6 s), on a clock the test
 * moves.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.rooms.shop.total-active-users=3",
      "anteroom.rooms.shop.max-active=3",
      "anteroom.rooms.shop.session-duration=1m"
    })
class RoomPeopleIntegrationTests {

  static final MutableClock CLOCK = new MutableClock(Instant.now());
  static final Duration CHECK = Duration.ofSeconds(6);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static RedisClient client;
  static StatefulRedisConnection<String, String> connection;

  @TestConfiguration
  static class MovableClock {
    @Bean
    @Primary
    Clock movableClock() {
      return CLOCK;
    }
  }

  @LocalServerPort int port;
  @Autowired QueueKeys keys;
  @Autowired TokenCodec tokens;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;

  @BeforeAll
  static void connect() {
    client = RedisClient.create(redis.uri());
    connection = client.connect();
  }

  @AfterAll
  static void disconnect() {
    connection.close();
    client.shutdown();
  }

  @BeforeEach
  void emptyRoom() {
    connection.sync().flushall();
    CLOCK.advance(Duration.ofMinutes(10));
    // Read again since the flush: no room marked full, no product's queue on.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isKnown()
                    && !mirror.isFull("shop")
                    && policies.policy("shop").budget().newUsersPerMinute() == 0
                    && IntStream.rangeClosed(1, 9)
                        .noneMatch(p -> mirror.isActive(QueueId.of("shop", "" + p))));
  }

  List<String> users() {
    return connection.sync().zrange(keys.sessions("shop"), 0, -1);
  }

  @SuppressWarnings("unchecked")
  String id(Visitor visitor) {
    return ((Verified.Valid<Pass>) tokens.readPass(visitor.cookie("anteroom_pass_shop"), "shop"))
        .value()
        .visitor();
  }

  @Test
  void oneVisitorOnThreeProductsIsOneActiveUserAndASecondVisitorEnters() {
    Visitor browser = new Visitor(port);
    for (String product : List.of("/products/2", "/products/3", "/products/4")) {
      assertThat(passed(browser.page(product))).as(product).isTrue();
    }

    assertThat(users()).hasSize(1);
    assertThat(Double.parseDouble(connection.sync().hget(keys.budget("shop"), "started-sum")))
        .as("one new user")
        .isEqualTo(1.0);
    assertThat(passed(new Visitor(port).page("/products/5"))).as("the second").isTrue();
    assertThat(passed(new Visitor(port).page("/products/6"))).as("the third").isTrue();
    assertThat(waits(new Visitor(port).json("/products/7"))).as("the fourth").isTrue();
    assertThat(users()).hasSize(3);
  }

  @Test
  void aVisitorWhoKeepsBrowsingAnItemWhoseQueueIsOffStaysCountedPastTheSessionLength() {
    Visitor browsing = new Visitor(port);
    assertThat(passed(browsing.page("/products/2"))).isTrue();
    String browsingId = id(browsing);
    assertThat(passed(new Visitor(port).page("/products/3"))).as("one who leaves").isTrue();

    for (Duration spent = Duration.ZERO;
        spent.compareTo(Duration.ofSeconds(120)) < 0;
        spent = spent.plus(CHECK)) {
      CLOCK.advance(CHECK);
      assertThat(passed(browsing.page("/products/2"))).as("browsing at %s", spent).isTrue();
    }

    assertThat(users()).as("the one who left is gone, the browser is not").hasSize(1);
    assertThat(passed(new Visitor(port).page("/products/4"))).isTrue();
    assertThat(passed(new Visitor(port).page("/products/4"))).isTrue();
    assertThat(waits(new Visitor(port).json("/products/4"))).as("3 of 3").isTrue();
    assertThat(users()).hasSize(3).contains(browsingId);
  }

  @Test
  void aPassKeptPastItsSessionsEndDoesNotWalkBackIntoAFullRoom() {
    Visitor idle = new Visitor(port);
    assertThat(passed(idle.page("/products/2"))).isTrue();
    String idleId = id(idle);
    CLOCK.advance(Duration.ofSeconds(67));
    for (int i = 0; i < 3; i++) {
      assertThat(passed(new Visitor(port).page("/products/3"))).as("newcomer %d", i).isTrue();
    }

    assertThat(waits(idle.json("/products/2"))).as("back after its session ended").isTrue();

    assertThat(users()).hasSize(3).doesNotContain(idleId);
    assertThat(connection.sync().zscore(keys.finished(QueueId.of("shop", "2")), idleId))
        .isNotNull();
  }

  @Test
  void aVisitorInsideAFullRoomOpensAnotherProductWhileANewcomerWaits() {
    Visitor inside = new Visitor(port);
    assertThat(passed(inside.page("/products/2"))).isTrue();
    assertThat(passed(new Visitor(port).page("/products/3"))).isTrue();
    assertThat(passed(new Visitor(port).page("/products/3"))).isTrue();
    Visitor newcomer = new Visitor(port);
    assertThat(waits(newcomer.json("/products/8"))).as("the room is full").isTrue();

    assertThat(passed(inside.page("/products/9")))
        .as("one of the three, on another product")
        .isTrue();

    assertThat(waits(new Visitor(port).json("/products/9"))).isTrue();
    assertThat(users()).hasSize(3);
  }

  /** A full room of users who came 20 s ago tells the next in line about 46 s, not 2–6 s. */
  @Test
  void aNewcomerToAFullRoomIsToldTheWaitUntilTheEarliestUserLeaves() {
    for (int i = 0; i < 3; i++) {
      assertThat(passed(new Visitor(port).page("/products/2"))).isTrue();
    }
    CLOCK.advance(Duration.ofSeconds(20));

    HttpResponse<String> waiting = new Visitor(port).json("/products/3");

    assertThat(waits(waiting)).isTrue();
    assertThat(Visitor.field(waiting.body(), "etaMinSeconds")).isBetween(45L, 46L);
  }

  /**
   * The demo's case: a room whose new-users bucket is in debt (60 a minute, ten minutes owed, as a
   * shadow run could leave it) told place 1 "2–6 s".
   */
  @Test
  void aNewcomerToARoomInDebtIsToldTheWaitUntilItsBucketHoldsATokenAgain() {
    settings.put("shop", null, Map.of("new-users-per-minute", "60")).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> policies.policy("shop").budget().newUsersPerMinute() == 60);
    connection.sync().hset(keys.budget("shop"), "tokens", "-600.000000");
    connection.sync().hset(keys.budget("shop"), "refill", Long.toString(CLOCK.millis()));

    HttpResponse<String> waiting = new Visitor(port).json("/products/3");

    assertThat(waits(waiting)).isTrue();
    assertThat(Visitor.field(waiting.body(), "etaMinSeconds")).isGreaterThanOrEqualTo(600);
  }
}
