package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.admin.AdminProperties.TokenEntry;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminAuthenticationTests {

  static final String TOKEN = "unit-test-token-0123456789abcdef";
  static final String VIEWER = "viewer-test-token-0123456789abcdef";

  final AdminAuthentication authentication =
      new AdminAuthentication(
          new AdminProperties(
              TOKEN,
              Map.of(
                  "vera",
                  new TokenEntry("viewer", HexFormat.of().formatHex(NamedToken.sha256(VIEWER)))),
              null));

  @Test
  void identifiesEachConfiguredTokenByItsNameAndRole() {
    assertThat(authentication.identify("Bearer " + TOKEN))
        .contains(new Operator("admin", Role.ADMIN));
    assertThat(authentication.identify("bearer  " + TOKEN + " "))
        .contains(new Operator("admin", Role.ADMIN));
    assertThat(authentication.identify("Bearer " + VIEWER))
        .contains(new Operator("vera", Role.VIEWER));
  }

  @Test
  void refusesAnythingElse() {
    for (String header :
        new String[] {
          null,
          "",
          TOKEN,
          "Basic " + TOKEN,
          "Bearer " + TOKEN + "0",
          "Bearer " + TOKEN.substring(1),
          "Bearer",
          "Bearer " + HexFormat.of().formatHex(NamedToken.sha256(VIEWER))
        }) {
      assertThat(authentication.identify(header)).as(String.valueOf(header)).isEmpty();
    }
  }

  @Test
  void withoutAConfiguredTokenRefusesEverything() {
    AdminAuthentication off = new AdminAuthentication(new AdminProperties(null, null, null));

    assertThat(off.enabled()).isFalse();
    assertThat(off.identify("Bearer ")).isEmpty();
    assertThat(off.identify("Bearer null")).isEmpty();
    assertThat(off.identify("Bearer " + TOKEN)).isEmpty();
  }

  @Test
  void namesShowNamesAndRolesOnly() {
    assertThat(authentication.names()).containsExactlyInAnyOrder("vera(viewer)", "admin(admin)");
  }
}
