package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Forged, tampered and misplaced passes and tickets are treated as absent: the visitor waits like
 * any newcomer, never reaches the origin through them, never sees a 500, and each rejection is
 * counted by its reason.
 */
@GatewayIntegrationTest
class TokenRejectionIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId QUEUE = QueueId.of("shop", "11");
  static final byte[] SECRET = Base64.getDecoder().decode(GatewayTestSetup.KEY);

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired TokenCodec tokens;
  @Autowired MeterRegistry meters;

  @BeforeEach
  void queueIsOnAndItsFreeSlotTaken() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, "/products/11");
  }

  record Forgery(String name, String cookie, String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Forgery> forgeries() {
    TokenCodec real = codec("main", SECRET, Clock.systemUTC());
    String visitor = io.anteroom.gateway.token.VisitorIds.newVisitorId();
    String passFor12 = real.issuePass(visitor, "shop", List.of("12"), Duration.ofMinutes(5));
    return List.of(
        new Forgery("garbage pass", "anteroom_pass_shop=not-a-token", "malformed"),
        new Forgery("tampered pass", "anteroom_pass_shop=" + retarget(passFor12), "signature"),
        new Forgery("alg=none pass", "anteroom_pass_shop=" + unsigned(passFor12), "algorithm"),
        new Forgery(
            "pass signed with a key the gateway does not know",
            "anteroom_pass_shop="
                + codec("other", new byte[32], Clock.systemUTC())
                    .issuePass(visitor, "shop", List.of("11"), Duration.ofMinutes(5)),
            "unknown_key"),
        new Forgery(
            "ticket presented as a pass",
            "anteroom_pass_shop=" + real.issueTicket(visitor, QUEUE),
            "type"),
        new Forgery(
            "expired pass",
            "anteroom_pass_shop="
                + codec(
                        "main",
                        SECRET,
                        Clock.fixed(Instant.now().minusSeconds(3600), ZoneOffset.UTC))
                    .issuePass(visitor, "shop", List.of("11"), Duration.ofMinutes(5)),
            "expired"),
        new Forgery(
            "pass of another room",
            "anteroom_pass_shop="
                + real.issuePass(visitor, "tickets", List.of("11"), Duration.ofMinutes(5)),
            "audience"),
        new Forgery("pass for another item", "anteroom_pass_shop=" + passFor12, "wrong_queue"),
        new Forgery("pass presented as a ticket", "anteroom_ticket_shop=" + passFor12, "type"),
        new Forgery(
            "ticket for another item",
            "anteroom_ticket_shop=" + real.issueTicket(visitor, QueueId.of("shop", "12")),
            "wrong_queue"),
        new Forgery("garbage ticket", "anteroom_ticket_shop=%%%.%%%.%%%", "malformed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void forgedTokenIsTreatedAsAbsentAndCounted(Forgery forgery) {
    double before = rejected(forgery.reason());
    Visitor visitor = new Visitor(port);
    visitor.setCookie(
        forgery.cookie().substring(0, forgery.cookie().indexOf('=')),
        forgery.cookie().substring(forgery.cookie().indexOf('=') + 1));

    HttpResponse<String> response = visitor.json("/products/11");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    assertThat(rejected(forgery.reason())).isEqualTo(before + 1);
  }

  private double rejected(String reason) {
    var counter =
        meters
            .find("anteroom.gateway.tokens.rejected")
            .tags("room", "shop", "reason", reason)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private static TokenCodec codec(String kid, byte[] secret, Clock clock) {
    return new TokenCodec(
        new TokenKeys(kid, Map.of(kid, secret)),
        "anteroom",
        clock,
        Duration.ofSeconds(5),
        Duration.ofHours(24));
  }

  /** Rewrites the payload to open item 11, keeping the old signature. */
  private static String retarget(String token) {
    String[] parts = token.split("\\.");
    String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    String forged = payload.replace("\"item\":\"12\"", "\"item\":\"11\"");
    if (forged.equals(payload)) {
      throw new IllegalStateException("no item 12 to retarget in " + payload);
    }
    return parts[0] + "." + base64(forged) + "." + parts[2];
  }

  /** The same claims, retargeted to item 11, with {@code alg: none} and no signature. */
  private static String unsigned(String token) {
    String[] parts = token.split("\\.");
    String header = "{\"alg\":\"none\",\"typ\":\"anteroom-pass+jwt\",\"kid\":\"main\"}";
    return base64(header) + "." + retarget(token).split("\\.")[1] + ".";
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
