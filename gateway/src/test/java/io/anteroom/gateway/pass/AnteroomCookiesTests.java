package io.anteroom.gateway.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseCookie;

class AnteroomCookiesTests {

  @Test
  void cookiesAreHttpOnlyLaxRootAndSecureByDefault() {
    ResponseCookie pass = new AnteroomCookies(true).pass("shop", "t", Duration.ofMinutes(10));

    assertThat(pass.getName()).isEqualTo("anteroom_pass_shop");
    assertThat(pass.isHttpOnly()).isTrue();
    assertThat(pass.isSecure()).isTrue();
    assertThat(pass.getSameSite()).isEqualTo("Lax");
    assertThat(pass.getPath()).isEqualTo("/");
    assertThat(pass.getMaxAge()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void ticketsLiveForTheBrowserSessionAndClearingExpiresAtOnce() {
    AnteroomCookies cookies = new AnteroomCookies(false);

    assertThat(cookies.ticket("shop", "t").getMaxAge().isNegative()).isTrue();
    assertThat(cookies.ticket("shop", "t").isSecure()).isFalse();
    assertThat(cookies.clearPass("shop").getMaxAge()).isZero();
    assertThat(cookies.clearTicket("shop").getName()).isEqualTo("anteroom_ticket_shop");
  }
}
