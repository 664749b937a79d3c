package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A visitor's session starts in Redis when the worker admits them; a pass they pick up later, by a
 * status poll or by loading the page, ends when that session does, not a whole session later.
 */
@GatewayIntegrationTest
class PassLifetimeIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  final QueueId queue = QueueId.of("shop", "7");

  @LocalServerPort int port;
  @Autowired TokenCodec tokens;
  @Autowired QueueKeys keys;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;

  /** Paused: visitors wait, and only this test moves them in. */
  @BeforeEach
  void pause() {
    settings.put("shop", null, Map.of("mode", "paused")).block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> policies.policy("shop").mode() == Mode.PAUSED);
  }

  @Test
  void passPickedUpByAStatusPollEndsWithTheSessionThatBeganAtAdmission() {
    Visitor visitor = waitingVisitor();
    Instant admitted = admitFourMinutesAgo(visitor);

    HttpResponse<String> status = visitor.json("/_anteroom/status?room=shop");

    assertThat(Visitor.text(status.body(), "state")).isEqualTo("admitted");
    assertEndsWithTheSession(visitor, admitted);
    // The deadline to come back is the end of that session, for apps to show.
    Instant sessionEnds = admitted.plus(policies.policy(queue).sessionIdleLimit());
    assertThat(status.body()).contains("\"admitted\":true");
    assertThat(Visitor.text(status.body(), "returnBy"))
        .isEqualTo(sessionEnds.truncatedTo(ChronoUnit.SECONDS).toString());
    long left = Duration.between(Instant.now(), sessionEnds).getSeconds();
    assertThat(Visitor.field(status.body(), "returnWithinSeconds")).isBetween(left - 5, left + 1);
  }

  @Test
  void passPickedUpByLoadingThePageEndsWithTheSessionThatBeganAtAdmission() {
    Visitor visitor = waitingVisitor();
    Instant admitted = admitFourMinutesAgo(visitor);

    HttpResponse<String> page = visitor.page("/products/7");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("Product page");
    assertEndsWithTheSession(visitor, admitted);
  }

  private Visitor waitingVisitor() {
    Visitor visitor = new Visitor(port);
    assertThat(Visitor.text(visitor.json("/products/7").body(), "state")).isEqualTo("paused");
    assertThat(visitor.cookie("anteroom_ticket_shop")).isNotNull();
    return visitor;
  }

  /** What the worker does on admission, done four minutes back: out of line, into running. */
  private Instant admitFourMinutesAgo(Visitor visitor) {
    Verified<Ticket> ticket = tokens.readTicket(visitor.cookie("anteroom_ticket_shop"), "shop");
    String id = ((Verified.Valid<Ticket>) ticket).value().visitor();
    Instant admitted = Instant.now().minusSeconds(240);
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(5), Duration.ofSeconds(2), 1000))) {
      var commands = connector.commands();
      assertThat(commands.zrem(keys.waiting(queue), id).toCompletableFuture().join()).isEqualTo(1);
      commands.zadd(keys.running(queue), admitted.toEpochMilli(), id).toCompletableFuture().join();
    }
    return admitted;
  }

  private void assertEndsWithTheSession(Visitor visitor, Instant admitted) {
    Verified<Pass> read = tokens.readPass(visitor.cookie("anteroom_pass_shop"), "shop");
    assertThat(read.isValid()).isTrue();
    Instant sessionEnds =
        admitted.truncatedTo(ChronoUnit.MILLIS).plus(policies.policy(queue).sessionIdleLimit());
    Pass pass = ((Verified.Valid<Pass>) read).value();
    assertThat(pass.entitlement(queue).until()).isEqualTo(sessionEnds);
    // The token's expiry is that end in whole seconds, rounded up.
    assertThat(pass.expiresAt()).isBetween(sessionEnds, sessionEnds.plusSeconds(1));
  }
}
