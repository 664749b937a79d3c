package io.anteroom.guard;

import static io.anteroom.guard.TestPasses.ROOM;
import static io.anteroom.guard.TestPasses.pass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.testing.TimingSensitive;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The verifier against a key set served over HTTP, as a gateway serves it. */
@TimingSensitive
class PassVerifierIntegrationTests {

  private final TestPasses.Key first = TestPasses.ed25519("k1");
  private final TestPasses.Key second = TestPasses.ed25519("k2");
  private JwksServer gateway;

  @AfterEach
  void stop() {
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void aPassSignedWithAKeyPublishedAfterTheStartIsAcceptedWithoutARestart() throws Exception {
    gateway = new JwksServer(TestPasses.jwks(first));
    PassVerifier verifier = verifier(Duration.ofMinutes(5));
    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").isAccepted()).isTrue();

    gateway.publish(TestPasses.jwks(first, second));

    assertThat(verifier.verify(pass(second, now(), "7"), ROOM, "7").isAccepted()).isTrue();
    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").isAccepted()).isTrue();
    assertThat(gateway.fetches()).isEqualTo(2);
  }

  @Test
  void aPassSignedWithARemovedKeyIsRefusedOnceTheCachedSetIsFetchedAgain() throws Exception {
    gateway = new JwksServer(TestPasses.jwks(first, second));
    PassVerifier verifier = verifier(Duration.ofMillis(300));
    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").isAccepted()).isTrue();

    gateway.publish(TestPasses.jwks(second));

    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").refusal())
                    .isEqualTo(Refusal.UNKNOWN_KEY));
    assertThat(verifier.verify(pass(second, now(), "7"), ROOM, "7").isAccepted()).isTrue();
  }

  @Test
  void passesNamingUnknownKidsFetchTheSetAtMostTwicePerInterval() throws Exception {
    gateway = new JwksServer(TestPasses.jwks(first));
    PassVerifier verifier = verifier(Duration.ofMinutes(5));

    for (int i = 0; i < 50; i++) {
      TestPasses.Key made = TestPasses.ed25519("made-up-" + i);
      assertThat(verifier.verify(pass(made, now(), "7"), ROOM, "7").refusal())
          .isEqualTo(Refusal.UNKNOWN_KEY);
    }

    assertThat(gateway.fetches()).isEqualTo(2);
  }

  @Test
  void anUnreachableKeySetRefusesAsUnavailable() throws Exception {
    gateway = new JwksServer(TestPasses.jwks(first));
    gateway.failing(true);
    PassVerifier verifier = verifier(Duration.ofMinutes(5));

    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").refusal())
        .isEqualTo(Refusal.KEYS_UNAVAILABLE);
  }

  @Test
  void aKeySetFetchedOnceOutlivesAnOutageOfTheGateway() throws Exception {
    gateway = new JwksServer(TestPasses.jwks(first));
    PassVerifier verifier = verifier(Duration.ofMillis(300));
    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").isAccepted()).isTrue();

    gateway.failing(true);
    int before = gateway.fetches();
    await().atMost(Duration.ofSeconds(5)).until(() -> fetchedAgain(verifier, before));

    assertThat(verifier.verify(pass(first, now(), "7"), ROOM, "7").isAccepted()).isTrue();
  }

  private boolean fetchedAgain(PassVerifier verifier, int before) {
    verifier.verify(pass(first, now(), "7"), ROOM, "7");
    return gateway.fetches() > before;
  }

  private PassVerifier verifier(Duration cacheTimeToLive) {
    URI url = gateway.url();
    return PassVerifier.builder()
        .jwksUrl(url)
        .cacheTimeToLive(cacheTimeToLive)
        .refreshMinInterval(cacheTimeToLive.dividedBy(3))
        .timeout(Duration.ofSeconds(1))
        .build();
  }

  private static Instant now() {
    return Instant.now();
  }
}
