package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.GatewayTestSetup;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A ticket is a claim to one place, not a key past the room's defences: once its place is gone
 * (given up, ended, or never taken because the line was down when it was handed out), coming back
 * meets the proof of work and the limits on new places like a newcomer; and a ticket lives no
 * longer than abandon-after and session-duration (10 minutes in the shop) past its last use. The
 * shop's queues hold everyone here (queue-all) and no worker runs, so people stay where they are
 * put.
 */
@GatewayIntegrationTest(properties = {"anteroom.rooms.shop.mode=queue-all"})
class TicketDefencesIntegrationTests {

  static final Duration TICKET_LIFE = Duration.ofMinutes(10);

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired TokenCodec tokens;
  @Autowired MeterRegistry meters;

  /** The only test with a limit on new places: the limit counts per room and client address. */
  @Test
  void aTicketSkipsTheLimitWhileItsPlaceIsKeptAndMeetsItOnceThePlaceIsGone() {
    override("71", Map.of());
    Visitor.lineUpSomeone(port, "/products/71");
    override("71", Map.of("new-places-per-ip-per-minute", "1"));
    Visitor visitor = new Visitor(port);
    assertThat(state(visitor.json("/products/71"))).isEqualTo("waiting");
    assertThat(Visitor.field(visitor.json("/products/71").body(), "position")).isEqualTo(2);
    assertThat(store.release(QueueId.of("shop", "71"), visitorOf(visitor)).block()).isTrue();

    HttpResponse<String> back = visitor.json("/products/71");

    assertThat(back.statusCode()).isEqualTo(429);
  }

  @Test
  void comingBackAfterThePlaceWasGivenUpMeetsTheProofOfWork() {
    Visitor visitor = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/72");
    assertThat(state(visitor.json("/products/72"))).isEqualTo("waiting");
    String id = visitorOf(visitor);
    assertThat(store.release(QueueId.of("shop", "72"), id).block()).isTrue();
    override("72", Map.of("proof-of-work", "8"));

    HttpResponse<String> back = visitor.json("/products/72");

    assertThat(state(back)).isEqualTo("challenge");
    assertThat(store.status(QueueId.of("shop", "72"), id).block().state().name())
        .isEqualTo("FINISHED");
  }

  @Test
  void whileThePlaceIsKeptTheTicketNeedsNoPuzzle() {
    Visitor.lineUpSomeone(port, "/products/73");
    Visitor visitor = new Visitor(port);
    assertThat(state(visitor.json("/products/73"))).isEqualTo("waiting");
    override("73", Map.of("proof-of-work", "8"));

    assertThat(Visitor.field(visitor.json("/products/73").body(), "position")).isEqualTo(2);
  }

  @Test
  void aTicketHandedOutWhileRedisWasDownMeetsTheDefencesOnceItIsBack() {
    QueueId queue = QueueId.of("shop", "74");
    Visitor visitor = new Visitor(port);
    redis.server().kill();
    try {
      HttpResponse<String> down = visitor.json("/products/74");
      assertThat(down.statusCode()).isEqualTo(503);
      assertThat(visitor.cookie("anteroom_ticket_shop")).isNotNull();
    } finally {
      redis.server().restart();
    }
    await()
        .atMost(Duration.ofSeconds(20))
        .ignoreExceptions()
        .until(() -> active.list().block() != null);
    override("74", Map.of("proof-of-work", "8"));
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> assertThat(new Visitor(port).json("/products/74").statusCode()).isEqualTo(200));

    HttpResponse<String> back = visitor.json("/products/74");

    assertThat(state(back)).isEqualTo("challenge");
    assertThat(store.counts(queue).block().waiting()).isZero();
  }

  @Test
  void aStatusPollForAPlaceThatIsGoneAnswersUnknownSoThePageJoinsThroughTheFilter() {
    Visitor visitor = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/75");
    assertThat(state(visitor.json("/products/75"))).isEqualTo("waiting");
    store.release(QueueId.of("shop", "75"), visitorOf(visitor)).block();

    HttpResponse<String> poll = visitor.json("/_anteroom/status?room=shop");

    assertThat(poll.statusCode()).isEqualTo(404);
    assertThat(state(poll)).isEqualTo("unknown");
    assertThat(store.counts(QueueId.of("shop", "75")).block().waiting()).isEqualTo(1);
  }

  @Test
  void aTicketLivesNoLongerThanAbandonAfterAndSessionDurationPastItsLastUse() {
    Visitor waiting = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/76");
    assertThat(state(waiting.json("/products/76"))).isEqualTo("waiting");
    String id = visitorOf(waiting);
    Visitor old = new Visitor(port);
    old.setCookie(
        "anteroom_ticket_shop",
        issuedAgo(TICKET_LIFE.plusSeconds(1)).issueTicket(id, QueueId.of("shop", "76")));
    double expired = rejected("expired");

    HttpResponse<String> response = old.json("/products/76");

    assertThat(rejected("expired")).isEqualTo(expired + 1);
    assertThat(Visitor.field(response.body(), "position")).isEqualTo(3);
    assertThat(visitorOf(old)).isNotEqualTo(id);
    assertThat(state(old.json("/_anteroom/status?room=shop"))).isEqualTo("waiting");
  }

  @Test
  void aTicketUsedPastHalfItsLifeIsRenewedKeepingWhenItsHolderJoined() {
    Visitor waiting = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/77");
    assertThat(state(waiting.json("/products/77"))).isEqualTo("waiting");
    String id = visitorOf(waiting);
    Instant joined = Instant.now().minus(TICKET_LIFE.dividedBy(2)).minusSeconds(1);
    String aging =
        issuedAgo(TICKET_LIFE.dividedBy(2).plusSeconds(1))
            .issueTicket(id, QueueId.of("shop", "77"));
    Visitor polling = new Visitor(port);
    polling.setCookie("anteroom_ticket_shop", aging);

    HttpResponse<String> poll = polling.json("/_anteroom/status?room=shop");

    assertThat(Visitor.field(poll.body(), "position")).isEqualTo(2);
    Ticket renewed = ticketOf(polling);
    assertThat(renewed.visitor()).isEqualTo(id);
    assertThat(renewed.issuedAt()).isAfter(joined.plusSeconds(60));
    assertThat(renewed.joinedAt()).isBetween(joined.minusSeconds(2), joined.plusSeconds(2));
  }

  @Test
  void aTicketYoungerThanHalfItsLifeIsNotRenewed() {
    Visitor visitor = new Visitor(port);
    Visitor.lineUpSomeone(port, "/products/78");
    assertThat(state(visitor.json("/products/78"))).isEqualTo("waiting");

    HttpResponse<String> poll = visitor.json("/_anteroom/status?room=shop");

    assertThat(poll.headers().allValues("Set-Cookie")).isEmpty();
  }

  private void override(String item, Map<String, String> values) {
    QueueId queue = QueueId.of("shop", item);
    settings.put("shop", item, values).block();
    active.activate(queue, Activation.MANUAL).block();
    mirror.refresh().block();
    policies.refresh().block();
    assertThat(mirror.isActive(queue)).isTrue();
  }

  /** The gateway's codec as it was {@code ago} back. */
  private static TokenCodec issuedAgo(Duration ago) {
    Clock then = Clock.fixed(Instant.now().minus(ago), ZoneOffset.UTC);
    return new TokenCodec(
        new TokenKeys("main", Map.of("main", Base64.getDecoder().decode(GatewayTestSetup.KEY))),
        "anteroom",
        then,
        Duration.ofSeconds(30),
        Duration.ofHours(24));
  }

  private String visitorOf(Visitor visitor) {
    return ticketOf(visitor).visitor();
  }

  private Ticket ticketOf(Visitor visitor) {
    Verified<Ticket> ticket = tokens.readTicket(visitor.cookie("anteroom_ticket_shop"), "shop");
    assertThat(ticket.isValid()).isTrue();
    return ((Verified.Valid<Ticket>) ticket).value();
  }

  private static String state(HttpResponse<String> response) {
    return Visitor.text(response.body(), "state");
  }

  private double rejected(String reason) {
    Counter counter =
        meters
            .find("anteroom.gateway.tokens.rejected")
            .tags("room", "shop", "reason", reason)
            .counter();
    return counter == null ? 0 : counter.count();
  }
}
