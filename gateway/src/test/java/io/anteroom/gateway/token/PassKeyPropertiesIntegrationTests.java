package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code anteroom.tokens.pass-*}: checked when bound, never shown when logged. */
class PassKeyPropertiesIntegrationTests {

  private final String pem = PassKeyFixtures.pem(PassKeyFixtures.ed25519().getPrivate());

  @Test
  void bindsFromSettingsAsOperatorsWriteThem() {
    new ApplicationContextRunner()
        .withUserConfiguration(TokenConfiguration.class)
        .withPropertyValues(
            "anteroom.tokens.keys.main=" + Base64.getEncoder().encodeToString(TokenFixtures.K1),
            "anteroom.tokens.pass-signing=ed25519",
            "anteroom.tokens.pass-keys.p1=" + pem,
            "anteroom.tokens.pass-keys.p0="
                + PassKeyFixtures.pem(PassKeyFixtures.ed25519().getPrivate()),
            "anteroom.tokens.pass-signing-kid=p1",
            "anteroom.tokens.pass-accept-until.p0=2099-01-01T00:00:00Z")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              PassKeys keys = context.getBean(PassKeys.class);
              assertThat(keys.signing()).isEqualTo(PassSigning.ED25519);
              assertThat(keys.signingKid()).isEqualTo("p1");
              assertThat(keys.jwks()).contains("\"kid\":\"p1\"", "\"kid\":\"p0\"");
            });
  }

  @Test
  void defaultSignsPassesWithHs256AndListsNoKey() {
    PassKeyProperties properties = new PassKeyProperties(null, null, null, null, null);

    assertThat(properties.passSigning()).isEqualTo(PassSigning.HS256);
    assertThat(PassKeys.from(properties, false, Set.of("main"), Clock.systemUTC()).jwks())
        .isEqualTo("{\"keys\":[]}");
  }

  @Test
  void passKeysWithoutAnAsymmetricPassSigningAreRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> new PassKeyProperties(PassSigning.HS256, null, Map.of("p1", pem), null, null))
        .withMessageContaining("pass-signing: ed25519 or es256");
  }

  @Test
  void theOnlyPassKeySignsAndSeveralNeedASigningKid() {
    assertThat(
            new PassKeyProperties(PassSigning.ED25519, null, Map.of("p1", pem), null, null)
                .passSigningKid())
        .isEqualTo("p1");
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                new PassKeyProperties(
                    PassSigning.ED25519, null, Map.of("p1", pem, "p2", pem), null, null))
        .withMessageContaining("pass-signing-kid: required");
  }

  @Test
  void theSigningKidCannotHaveAnAcceptUntil() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                new PassKeyProperties(
                    PassSigning.ED25519,
                    "p1",
                    Map.of("p1", pem),
                    Map.of("p1", "2026-12-04T08:00:00Z"),
                    null))
        .withMessageContaining("pass-accept-until.p1");
  }

  @Test
  void passKeyCannotReuseTheKidOfAnHs256Key() {
    PassKeyProperties properties =
        new PassKeyProperties(PassSigning.ED25519, null, Map.of("main", pem), null, null);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> PassKeys.from(properties, false, Set.of("main"), Clock.systemUTC()))
        .withMessageContaining("pass-keys.main");
  }

  @Test
  void withoutPassKeysADevelopmentKeyIsGeneratedOnlyWhenAllowed() {
    PassKeyProperties properties = new PassKeyProperties(PassSigning.ES256, null, null, null, null);

    assertThatIllegalArgumentException()
        .isThrownBy(() -> PassKeys.from(properties, false, Set.of("main"), Clock.systemUTC()))
        .withMessageContaining("anteroom.tokens.pass-keys");
    PassKeys generated = PassKeys.from(properties, true, Set.of("main"), Clock.systemUTC());
    assertThat(generated.signingKid()).isEqualTo(PassKeyProperties.DEV_KID);
    assertThat(generated.jwks()).contains("\"kid\":\"dev-pass\"", "\"alg\":\"ES256\"");
  }

  @Test
  void hs256PassesUntilIsParsedAndLoggingNeverShowsAKey() {
    PassKeyProperties properties =
        new PassKeyProperties(
            PassSigning.ED25519, null, Map.of("p1", pem), null, "2026-12-04T08:00:00Z");

    assertThat(properties.hs256PassesUntilInstant())
        .isEqualTo(Instant.parse("2026-12-04T08:00:00Z"));
    assertThat(properties.toString()).contains("p1").doesNotContain("PRIVATE");
  }
}
