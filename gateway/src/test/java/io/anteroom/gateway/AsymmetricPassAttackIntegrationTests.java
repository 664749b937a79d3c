package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Forged passes sent to an active queue of a gateway that signs passes with Ed25519 (the test key
 * {@code p2} of {@link JwksIntegrationTests}), as {@link TokenAttackIntegrationTests} does for
 * HS256: each waits, never reaches the origin, and is counted by its reason; the gateway's own pass
 * opens.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.tokens.pass-signing=ed25519",
      "anteroom.tokens.pass-keys.p2=" + JwksIntegrationTests.P2_JWK
    })
class AsymmetricPassAttackIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId QUEUE = QueueId.of("shop", "21");
  static final String PATH = "/products/21";
  static final String VISITOR = VisitorIds.newVisitorId();
  static final byte[] SECRET = Base64.getDecoder().decode(GatewayTestSetup.KEY);

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired MeterRegistry meters;
  @Autowired TokenCodec tokens;
  @Autowired QueueKeys keys;

  @BeforeEach
  void queueIsOnAndItsFreeSlotTaken() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, PATH);
  }

  record Attack(String name, String token, String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Attack> attacks() throws GeneralSecurityException {
    String claims = claims();
    var other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    return List.of(
        new Attack(
            "EdDSA under our kid, signed with another key",
            eddsa(header("EdDSA", "p2"), claims, other.getPrivate()),
            "signature"),
        new Attack(
            "HS256 keyed with the DER of our public key",
            hmac(header("HS256", "p2"), claims, publicDer()),
            "algorithm"),
        new Attack(
            "HS256 signed with the ticket key after the switch",
            hmac(header("HS256", "main"), claims, SECRET),
            "algorithm"),
        new Attack(
            "ES256 header over an EdDSA signature",
            eddsa(header("ES256", "p2"), claims, other.getPrivate()),
            "algorithm"),
        new Attack(
            "alg none", base64(header("none", "p2")) + "." + base64(claims) + ".", "algorithm"),
        new Attack(
            "EdDSA under an unknown kid",
            eddsa(header("EdDSA", "p9"), claims, other.getPrivate()),
            "unknown_key"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void forgedPassWaitsNeverReachesTheOriginAndIsCounted(Attack attack) {
    double before = rejected(attack.reason());
    int originHits = originHits();

    HttpResponse<String> response = send(attack.token());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    assertThat(originHits()).isEqualTo(originHits);
    assertThat(rejected(attack.reason())).isEqualTo(before + 1);
  }

  @Test
  void theGatewaysOwnEd25519PassOpensAgainAndAgain() {
    redis
        .server()
        .command("ZADD", keys.running(QUEUE), Long.toString(System.currentTimeMillis()), VISITOR);
    String pass = tokens.issuePass(VISITOR, "shop", List.of("21"), Duration.ofMinutes(5));
    int originHits = originHits();

    for (int i = 0; i < 3; i++) {
      HttpResponse<String> response = send(pass);
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.body()).contains("Product page");
    }
    assertThat(originHits()).isEqualTo(originHits + 3);
  }

  private HttpResponse<String> send(String token) {
    return new Visitor(port)
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
                .header("Accept", "application/json")
                .header("Cookie", "anteroom_pass_shop=" + token));
  }

  private int originHits() {
    return origin.findAll(anyRequestedFor(urlPathMatching("/products/21.*"))).size();
  }

  private double rejected(String reason) {
    var counter =
        meters
            .find("anteroom.gateway.tokens.rejected")
            .tags("room", "shop", "reason", reason)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private static String claims() {
    long iat = Instant.now().getEpochSecond();
    return ("{\"iss\":\"anteroom\",\"sub\":\"%s\",\"aud\":\"shop\",\"items\":[\"21\"],"
            + "\"iat\":%d,\"exp\":%d,\"jti\":\"j1\"}")
        .formatted(VISITOR, iat, iat + 300);
  }

  private static String header(String alg, String kid) {
    return "{\"alg\":\"%s\",\"kid\":\"%s\",\"typ\":\"anteroom-pass+jwt\"}".formatted(alg, kid);
  }

  /**
   * The DER of the public key of {@code p2}, as an attacker reads it from the JWKS ({@code openssl
   * pkey -pubout -outform DER}).
   */
  private static byte[] publicDer() {
    return Base64.getDecoder()
        .decode("MCowBQYDK2VwAyEAgcaQLaHV4bM9wZwUUD/QM/RDS+VGP0GpZVBhoCzARaY=");
  }

  private static String eddsa(String header, String payload, PrivateKey key)
      throws GeneralSecurityException {
    String input = base64(header) + "." + base64(payload);
    Signature signature = Signature.getInstance("Ed25519");
    signature.initSign(key);
    signature.update(input.getBytes(StandardCharsets.US_ASCII));
    return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
  }

  private static String hmac(String header, String payload, byte[] secret)
      throws GeneralSecurityException {
    String input = base64(header) + "." + base64(payload);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret, "HmacSHA256"));
    return input
        + "."
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
