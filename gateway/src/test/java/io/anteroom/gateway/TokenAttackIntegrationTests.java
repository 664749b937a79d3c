package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * Hand-made hostile cookies sent as raw {@code Cookie} headers to an active queue: each is treated
 * as absent (the visitor waits, the origin never sees the request), counted by its reason, never a
 * 500, and answered within a bound. Cookies beyond the server's 16 KB header limit are refused by
 * the server itself with 431 before any parsing. A pass expired by less than the clock leeway still
 * opens.
 */
@GatewayIntegrationTest
class TokenAttackIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final QueueId QUEUE = QueueId.of("shop", "21");
  static final String PATH = "/products/21";
  static final byte[] SECRET = Base64.getDecoder().decode(GatewayTestSetup.KEY);
  static final String VISITOR = VisitorIds.newVisitorId();
  static final String PASS_TYP = "anteroom-pass+jwt";

  /** Longest a hostile request may take; far above a normal answer, far below a stall. */
  static final Duration BOUND = Duration.ofSeconds(8);

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired MeterRegistry meters;
  @Autowired QueueKeys keys;

  @BeforeEach
  void queueIsOnAndItsFreeSlotTaken() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    Visitor.lineUpSomeone(port, PATH);
  }

  /**
   * @param reason the rejection counted, or null for a request the server refuses as too large
   */
  record Attack(String name, String cookieHeader, String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Attack> attacks() throws Exception {
    String claims = claims(Instant.now(), Duration.ofMinutes(5));
    String valid = codec(Clock.systemUTC()).issuePass(VISITOR, "shop", List.of("21"), ttl());
    byte[] publicKey =
        KeyPairGenerator.getInstance("RSA").generateKeyPair().getPublic().getEncoded();
    String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(publicKey);
    return List.of(
        attack("alg=none", signed(header("none", "main", PASS_TYP), claims, null), "algorithm"),
        attack(
            "HS256 signed with the DER of a public key",
            signed(header("HS256", "main", PASS_TYP), claims, publicKey),
            "signature"),
        attack(
            "HS256 signed with a PEM public key",
            signed(header("HS256", "main", PASS_TYP), claims, pem.getBytes(StandardCharsets.UTF_8)),
            "signature"),
        attack(
            "RS256 header over an HMAC signature",
            signed(header("RS256", "main", PASS_TYP), claims, SECRET),
            "algorithm"),
        attack(
            "ticket typ on a pass signed with our key",
            signed(header("HS256", "main", "anteroom-ticket+jwt"), claims, SECRET),
            "type"),
        attack(
            "no typ, signed with our key",
            signed("{\"alg\":\"HS256\",\"kid\":\"main\"}", claims, SECRET),
            "type"),
        attack(
            "pass for another item",
            codec(Clock.systemUTC()).issuePass(VISITOR, "shop", List.of("22"), ttl()),
            "wrong_queue"),
        attack(
            "expired beyond the leeway",
            codec(Clock.fixed(Instant.now().minusSeconds(400), ZoneOffset.UTC))
                .issuePass(VISITOR, "shop", List.of("21"), ttl()),
            "expired"),
        attack(
            "unknown kid",
            signed(header("HS256", "retired", PASS_TYP), claims, SECRET),
            "unknown_key"),
        attack(
            "kid of 65 characters",
            signed(header("HS256", "m".repeat(65), PASS_TYP), claims, SECRET),
            "unknown_key"),
        attack(
            "kid of 2000 characters",
            signed(header("HS256", "m".repeat(2000), PASS_TYP), claims, SECRET),
            "malformed"),
        attack("jku in the header", withHeaderField("jku", "\"https://evil.test/k\""), "algorithm"),
        attack("x5u in the header", withHeaderField("x5u", "\"https://evil.test/c\""), "algorithm"),
        attack(
            "embedded jwk in the header",
            withHeaderField(
                "jwk",
                "{\"kty\":\"oct\",\"k\":\""
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[32])
                    + "\"}"),
            "algorithm"),
        attack("x5c in the header", withHeaderField("x5c", "[\"MIIB\"]"), "algorithm"),
        attack("8 KB cookie", "A".repeat(8 * 1024), "malformed"),
        attack(
            "10,000 levels of nested arrays in the claims",
            signed(
                header("HS256", "main", PASS_TYP),
                "{\"sub\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}",
                SECRET),
            null),
        attack(
            "2,500 levels of nested arrays in the claims, within the header limit",
            signed(
                header("HS256", "main", PASS_TYP),
                "{\"sub\":" + "[".repeat(2_500) + "]".repeat(2_500) + "}",
                SECRET),
            "malformed"),
        attack(
            "10,000 levels of nested objects in the header",
            base64("{\"alg\":" + "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000) + "}")
                + ".e30.AAAA",
            null),
        attack(
            "1,000 levels of nested objects in the header",
            base64("{\"alg\":" + "{\"a\":".repeat(1_000) + "1" + "}".repeat(1_000) + "}")
                + ".e30.AAAA",
            "malformed"),
        attack("bad base64", "%%%.$$$.***", "malformed"),
        attack(
            "bad base64 in the signature",
            valid.substring(0, valid.length() - 4) + "!!!!",
            "signature"),
        new Attack(
            "the same valid pass twice",
            "anteroom_pass_shop=" + valid + "; anteroom_pass_shop=" + valid,
            "duplicate"),
        new Attack(
            "a valid pass and a garbage one of the same name",
            "anteroom_pass_shop=garbage; anteroom_pass_shop=" + valid,
            "duplicate"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void hostileCookieIsTreatedAsAbsentCountedAndAnsweredWithinABound(Attack attack) {
    double before = attack.reason() == null ? 0 : rejected(attack.reason());
    int originHits = originHits();
    long started = System.nanoTime();

    HttpResponse<String> response = sendWithCookie(attack.cookieHeader());

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
    assertThat(originHits()).isEqualTo(originHits);
    if (attack.reason() == null) {
      assertThat(response.statusCode()).isEqualTo(431);
      return;
    }
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    assertThat(rejected(attack.reason())).isEqualTo(before + 1);
  }

  /** Its session still runs in Redis: the holder's clock, or the issuing gateway's, was off. */
  @Test
  void passExpiredByLessThanTheLeewayStillOpens() {
    redis
        .server()
        .command("ZADD", keys.running(QUEUE), Long.toString(System.currentTimeMillis()), VISITOR);
    int originHits = originHits();
    String recentlyExpired =
        codec(Clock.fixed(Instant.now().minusSeconds(310), ZoneOffset.UTC))
            .issuePass(VISITOR, "shop", List.of("21"), ttl());

    HttpResponse<String> response = sendWithCookie(recentlyExpired);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("Product page");
    assertThat(originHits()).isEqualTo(originHits + 1);
  }

  @Test
  void aBurstOfHostileCookiesDoesNotHoldUpAPassHolder() throws Exception {
    List<String> hostile =
        List.of(
            "A".repeat(8 * 1024),
            signed(
                header("HS256", "main", PASS_TYP),
                "{\"sub\":" + "[".repeat(2_500) + "]".repeat(2_500) + "}",
                SECRET),
            base64("{\"alg\":" + "[".repeat(700) + "]".repeat(700) + "}") + ".e30.AAAA");
    HttpClient http = HttpClient.newHttpClient();
    List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; i < 60; i++) {
      burst.add(
          http.sendAsync(
              request("anteroom_pass_shop=" + hostile.get(i % hostile.size())),
              HttpResponse.BodyHandlers.ofString()));
    }
    String pass = codec(Clock.systemUTC()).issuePass(VISITOR, "shop", List.of("21"), ttl());

    HttpResponse<String> holder = sendWithCookie(pass);

    assertThat(holder.statusCode()).isEqualTo(200);
    assertThat(holder.body()).contains("Product page");
    for (CompletableFuture<HttpResponse<String>> answer : burst) {
      assertThat(answer.get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND.multipliedBy(2));
  }

  /** Passes are HS256 here: no public key to list, and the shared secret never shown. */
  @Test
  void jwksOfAGatewaySigningPassesWithHs256IsEmpty() {
    HttpResponse<String> response = new Visitor(port).json("/_anteroom/jwks.json");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{\"keys\":[]}");
    assertThat(response.body()).doesNotContain(GatewayTestSetup.KEY);
  }

  private HttpRequest request(String cookieHeader) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
        .header("Accept", "application/json")
        .header("Cookie", cookieHeader)
        .timeout(BOUND)
        .build();
  }

  private HttpResponse<String> sendWithCookie(String cookie) {
    String header = cookie.startsWith("anteroom_") ? cookie : "anteroom_pass_shop=" + cookie;
    return new Visitor(port)
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
                .header("Accept", "application/json")
                .header("Cookie", header));
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

  private static Attack attack(String name, String token, String reason) {
    return new Attack(name, "anteroom_pass_shop=" + token, reason);
  }

  private static Duration ttl() {
    return Duration.ofMinutes(5);
  }

  private static TokenCodec codec(Clock clock) {
    return new TokenCodec(
        new TokenKeys("main", Map.of("main", SECRET)),
        "anteroom",
        clock,
        Duration.ofSeconds(30),
        Duration.ofHours(24));
  }

  private static String claims(Instant issued, Duration lifetime) {
    long iat = issued.getEpochSecond();
    return "{\"iss\":\"anteroom\",\"sub\":\"%s\",\"aud\":\"shop\",\"items\":[\"21\"],\"iat\":%d,\"exp\":%d,\"jti\":\"j1\"}"
        .formatted(VISITOR, iat, iat + lifetime.toSeconds());
  }

  private static String header(String alg, String kid, String typ) {
    return "{\"alg\":\"%s\",\"kid\":\"%s\",\"typ\":\"%s\"}".formatted(alg, kid, typ);
  }

  /** A pass signed with our key whose header also carries {@code name}. */
  private static String withHeaderField(String name, String json) {
    String header =
        "{\"alg\":\"HS256\",\"kid\":\"main\",\"typ\":\"%s\",\"%s\":%s}"
            .formatted(PASS_TYP, name, json);
    return signed(header, claims(Instant.now(), ttl()), SECRET);
  }

  /** {@code header.payload.signature}, HMAC-SHA256 with {@code secret}, or unsigned when null. */
  private static String signed(String header, String payload, byte[] secret) {
    String input = base64(header) + "." + base64(payload);
    if (secret == null) {
      return input + ".";
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      byte[] signature = mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
      return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String base64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
