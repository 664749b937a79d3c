package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.DurationBinding;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

@ExtendWith(OutputCaptureExtension.class)
class TokenPropertiesIntegrationTests {

  private static final String KEY_1 = Base64.getEncoder().encodeToString(TokenFixtures.K1);
  private static final String KEY_2 =
      Base64.getUrlEncoder().withoutPadding().encodeToString(TokenFixtures.secret(0xfb));

  private final ApplicationContextRunner context =
      new ApplicationContextRunner().withUserConfiguration(TokenConfiguration.class);

  @Test
  void singleKeyIsTheSigningKeyAndDefaultsApply() {
    TokenProperties properties = properties(null, Map.of("main", KEY_1), false, "5s", "24h");

    assertThat(properties.signingKey()).isEqualTo("main");
    assertThat(properties.secrets().get("main")).isEqualTo(TokenFixtures.K1);
    assertThat(properties.leeway()).isEqualTo(Duration.ofSeconds(5));
    assertThat(properties.ticketMaxAge()).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void urlSafeBase64WithoutPaddingIsAccepted() {
    TokenProperties properties = properties("b", Map.of("a", KEY_1, "b", KEY_2), false, "5s", "1h");

    assertThat(properties.secrets().get("b")).isEqualTo(TokenFixtures.secret(0xfb));
  }

  @Test
  void noKeyIsRefusedWithTheWayToSetOne() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of(), false, "5s", "24h"))
        .withMessage(
            "anteroom.tokens.keys: no signing key configured; set ANTEROOM_TOKEN_KEY (base64, 32+"
                + " bytes) or anteroom.tokens.keys.<kid>");
  }

  @Test
  void blankKeyCountsAsNoKey() {
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put("main", "  ");

    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, keys, false, "5s", "24h"))
        .withMessageStartingWith("anteroom.tokens.keys: no signing key configured");
  }

  @Test
  void shortKeyIsRefusedWithoutShowingIt() {
    String shortKey = Base64.getEncoder().encodeToString(new byte[16]);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of("main", shortKey), false, "5s", "24h"))
        .withMessage(
            "anteroom.tokens.keys.main: must be at least 32 bytes once base64-decoded, was 16");
  }

  @Test
  void keyThatIsNotBase64IsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of("main", "not*base64!"), false, "5s", "24h"))
        .withMessage("anteroom.tokens.keys.main: not base64 (standard or URL-safe alphabet)");
  }

  @Test
  void signingKidMissingFromTheKeysIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties("new", Map.of("old", KEY_1), false, "5s", "24h"))
        .withMessage("anteroom.tokens.signing-key: 'new' is not one of the keys [old]");
  }

  @Test
  void severalKeysWithoutSigningKidAreRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of("b", KEY_2, "a", KEY_1), false, "5s", "24h"))
        .withMessage(
            "anteroom.tokens.signing-key: required when several keys are configured [a, b]");
  }

  @Test
  void leewayWithoutUnitIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of("main", KEY_1), false, "5", "24h"))
        .withMessageStartingWith("anteroom.tokens.leeway: must be a whole number with a unit");
  }

  @Test
  void refuseToStartWhenTheLeewayHasNoUnitThenNameTheProperty() {
    context
        .withPropertyValues("anteroom.tokens.keys.main=" + KEY_1, "anteroom.tokens.leeway=5")
        .run(
            started ->
                assertThat(started)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageStartingWith(
                        "anteroom.tokens.leeway: must be a whole number with a unit"));
  }

  @Test
  void zeroTicketMaxAgeIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> properties(null, Map.of("main", KEY_1), false, "5s", "0s"))
        .withMessage("anteroom.tokens.ticket-max-age: must be longer than 0");
  }

  @Test
  void toStringNamesKeysButNeverShowsSecrets() {
    TokenProperties properties = properties(null, Map.of("main", KEY_1), false, "5s", "24h");

    assertThat(properties.toString()).contains("main").doesNotContain(KEY_1);
  }

  @Test
  void devKeyIsGeneratedWithAWarningWhenAskedFor(CapturedOutput output) {
    TokenProperties properties = properties(null, Map.of(), true, "5s", "24h");
    MutableClock clock = MutableClock.startingAt2026();

    TokenCodec codec = TokenCodec.from(properties, clock);
    String token =
        codec.issuePass(TokenFixtures.VISITOR, "shop", List.of("_"), Duration.ofMinutes(1));

    assertThat(properties.signingKey()).isEqualTo(TokenProperties.DEV_KID);
    assertThat(codec.readPass(token, "shop").isValid()).isTrue();
    assertThat(TokenFixtures.part(token, 0)).contains("\"kid\":\"dev\"");
    assertThat(output).contains("generated development key", "will not survive a restart");
  }

  @Test
  void devKeysOfTwoGatewaysDoNotVerifyEachOther() {
    TokenProperties properties = properties(null, Map.of(), true, "5s", "24h");
    MutableClock clock = MutableClock.startingAt2026();
    String token =
        TokenCodec.from(properties, clock)
            .issueTicket(TokenFixtures.VISITOR, QueueId.roomWide("shop"));

    assertThat(TokenCodec.from(properties, clock).readTicket(token, "shop"))
        .isEqualTo(Verified.rejected(Rejection.SIGNATURE));
  }

  @Test
  void configuredKeysWinOverTheDevKey() {
    TokenProperties properties = properties(null, Map.of("main", KEY_1), true, "5s", "24h");

    assertThat(TokenKeys.from(properties, java.time.Clock.systemUTC()).kids())
        .containsExactly("main");
  }

  @Test
  void bindsFromRelaxedPropertyNamesWithDefaults() {
    context
        .withPropertyValues(
            "anteroom.tokens.keys.old=" + KEY_1,
            "anteroom.tokens.keys.new=" + KEY_2,
            "anteroom.tokens.signing-key=new")
        .run(
            started -> {
              TokenProperties properties = started.getBean(TokenProperties.class);
              assertThat(properties.issuer()).isEqualTo("anteroom");
              assertThat(properties.signingKey()).isEqualTo("new");
              assertThat(properties.generateDevKey()).isFalse();
              assertThat(properties.leeway()).isEqualTo(Duration.ofSeconds(30));
              assertThat(properties.ticketMaxAge()).isEqualTo(Duration.ofHours(24));
              assertThat(started).hasSingleBean(TokenCodec.class);
            });
  }

  @Test
  void acceptUntilBindsByKidAsAnInstant() {
    context
        .withPropertyValues(
            "anteroom.tokens.keys.old=" + KEY_1,
            "anteroom.tokens.keys.new=" + KEY_2,
            "anteroom.tokens.signing-key=new",
            "anteroom.tokens.accept-until.old=2026-12-04T08:00:00Z")
        .run(
            started ->
                assertThat(started.getBean(TokenProperties.class).acceptUntilInstants())
                    .containsExactly(
                        Map.entry("old", java.time.Instant.parse("2026-12-04T08:00:00Z"))));
  }

  @Test
  void acceptUntilOfTheSigningKeyOfAnUnknownKeyOrNotAnInstantIsRefused() {
    Map<String, String> keys = Map.of("old", KEY_1, "new", KEY_2);
    assertThatIllegalArgumentException()
        .isThrownBy(() -> withAcceptUntil(keys, Map.of("new", "2026-12-04T08:00:00Z")))
        .withMessage("anteroom.tokens.accept-until.new: the signing key cannot have an end");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> withAcceptUntil(keys, Map.of("gone", "2026-12-04T08:00:00Z")))
        .withMessage("anteroom.tokens.accept-until.gone: not one of the keys [new, old]");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> withAcceptUntil(keys, Map.of("old", "tomorrow")))
        .withMessageStartingWith("anteroom.tokens.accept-until.old: not an ISO-8601 instant");
  }

  @Test
  void kidThatIsTooLongOrHasOddCharactersIsRefused() {
    for (String kid : List.of("k".repeat(65), "a b", "k\"", "")) {
      assertThatIllegalArgumentException()
          .as(kid)
          .isThrownBy(() -> properties(null, Map.of(kid, KEY_1), false, "5s", "24h"))
          .withMessageContaining("a kid is 1 to 64 letters, digits");
    }
    assertThat(properties(null, Map.of("k".repeat(64), KEY_1), false, "5s", "24h").signingKey())
        .hasSize(64);
  }

  @Test
  void emptyEnvironmentKeyWithDevKeyAllowedStartsOnADevKey() {
    context
        .withPropertyValues("anteroom.tokens.keys.main=", "anteroom.tokens.generate-dev-key=true")
        .run(
            started ->
                assertThat(started.getBean(TokenProperties.class).signingKey()).isEqualTo("dev"));
  }

  @Test
  void startupFailsWithTheMessageWhenNoKeyIsConfigured() {
    context.run(
        started ->
            assertThat(started)
                .hasFailed()
                .getFailure()
                .rootCause()
                .hasMessageStartingWith("anteroom.tokens.keys: no signing key configured"));
  }

  private static TokenProperties withAcceptUntil(
      Map<String, String> keys, Map<String, String> acceptUntil) {
    return new TokenProperties(
        "anteroom", "new", keys, acceptUntil, false, Duration.ofSeconds(5), Duration.ofHours(24));
  }

  private static TokenProperties properties(
      String signingKey, Map<String, String> keys, boolean dev, String leeway, String maxAge) {
    return new TokenProperties(
        "anteroom",
        signingKey,
        keys,
        Map.of(),
        dev,
        DurationBinding.parse("anteroom.tokens.leeway", leeway),
        DurationBinding.parse("anteroom.tokens.ticket-max-age", maxAge));
  }
}
