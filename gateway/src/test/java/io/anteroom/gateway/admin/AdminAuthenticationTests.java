package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AdminAuthenticationTests {

  static final String TOKEN = "unit-test-token-0123456789abcdef";

  final AdminAuthentication authentication = new AdminAuthentication(new AdminProperties(TOKEN));

  @Test
  void acceptsTheConfiguredTokenAsABearerToken() {
    assertThat(authentication.accepts("Bearer " + TOKEN)).isTrue();
    assertThat(authentication.accepts("bearer  " + TOKEN + " ")).isTrue();
  }

  @Test
  void refusesAnythingElse() {
    assertThat(authentication.accepts(null)).isFalse();
    assertThat(authentication.accepts("")).isFalse();
    assertThat(authentication.accepts(TOKEN)).as("without the scheme").isFalse();
    assertThat(authentication.accepts("Basic " + TOKEN)).isFalse();
    assertThat(authentication.accepts("Bearer " + TOKEN + "0")).isFalse();
    assertThat(authentication.accepts("Bearer " + TOKEN.substring(1))).isFalse();
    assertThat(authentication.accepts("Bearer")).isFalse();
  }

  @Test
  void withoutAConfiguredTokenRefusesEverything() {
    AdminAuthentication off = new AdminAuthentication(new AdminProperties(null));

    assertThat(off.enabled()).isFalse();
    assertThat(off.accepts("Bearer ")).isFalse();
    assertThat(off.accepts("Bearer null")).isFalse();
    assertThat(off.accepts("Bearer " + TOKEN)).isFalse();
  }
}
