package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class AdminPropertiesTests {

  @Test
  void tokenIsReadFromTheEnvironmentVariableAnteroomAdminToken() {
    AdminProperties properties =
        bind(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("ANTEROOM_ADMIN_TOKEN", "from-the-environment-0123")));

    assertThat(properties.token()).isEqualTo("from-the-environment-0123");
    assertThat(properties.enabled()).isTrue();
  }

  @Test
  void noOrBlankTokenTurnsTheApiOff() {
    assertThat(new AdminProperties(null).enabled()).isFalse();
    assertThat(new AdminProperties("  ").enabled()).isFalse();
    assertThat(new AdminProperties("").token()).isNull();
  }

  @Test
  void aShortTokenStopsStartUpWithAMessageNamingTheProperty() {
    assertThatThrownBy(() -> new AdminProperties("short"))
        .hasMessageContaining("anteroom.admin.token")
        .hasMessageContaining("at least 16");
  }

  @Test
  void toStringNeverShowsTheToken() {
    assertThat(new AdminProperties("secret-token-0123456789").toString())
        .doesNotContain("secret")
        .contains("(set)");
  }

  private static AdminProperties bind(SystemEnvironmentPropertySource environment) {
    MutablePropertySources sources = new MutablePropertySources();
    sources.addFirst(environment);
    return new Binder(ConfigurationPropertySources.from(sources))
        .bind("anteroom.admin", AdminProperties.class)
        .get();
  }

  @Test
  void aPlaceholderWithSpacesIsRefusedAtStart() {
    assertThatThrownBy(
            () -> new AdminProperties("REPLACE ME with the output of: openssl rand -hex 32"))
        .hasMessageContaining("anteroom.admin.token")
        .hasMessageContaining("no spaces");
    assertThat(new AdminProperties("0123456789abcdef_-.~+/=").enabled()).isTrue();
  }
}
