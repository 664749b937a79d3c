package io.anteroom.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.gateway.token.VisitorIds;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpCookie;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class IdentitiesTests {

  final Identities identities =
      new Identities(
          Map.of(
              "shop", IdentitySource.parse("shop", "header:X-User-Id"),
              "hall", IdentitySource.parse("hall", "cookie:uid")),
          "a-secret-of-sixteen-or-more");

  static MockServerHttpRequest withHeader(String value) {
    return MockServerHttpRequest.get("/").header("X-User-Id", value).build();
  }

  @Test
  void oneIdentityIsOneVisitorIdPerRoomAndNeverTheRawValue() {
    String id = identities.visitor("shop", withHeader("alice"), null);

    assertThat(VisitorIds.isVisitorId(id)).isTrue();
    assertThat(identities.visitor("shop", withHeader(" alice "), null)).isEqualTo(id);
    assertThat(identities.visitor("shop", withHeader("bob"), null)).isNotEqualTo(id);
    assertThat(
            identities.visitor(
                "hall",
                MockServerHttpRequest.get("/").cookie(new HttpCookie("uid", "alice")).build(),
                null))
        .isNotEqualTo(id)
        .isNotNull();
  }

  @Test
  void fromAnEventsCutoffOneIdentityHasANewVisitorId() {
    Instant cutoff = Instant.parse("2026-12-24T17:30:00Z");
    String before = identities.visitor("shop", withHeader("alice"), null);

    String during = identities.visitor("shop", withHeader("alice"), cutoff);

    assertThat(during).isNotEqualTo(before);
    assertThat(identities.visitor("shop", withHeader("alice"), cutoff)).isEqualTo(during);
    assertThat(VisitorIds.isVisitorId(during)).isTrue();
  }

  @Test
  void theSecretKeysTheHash() {
    Identities other = new Identities(Map.of(), "another-secret-of-sixteen");
    Identities plain = new Identities(Map.of(), "");

    assertThat(other.visitorOf("shop", "alice"))
        .isNotEqualTo(identities.visitorOf("shop", "alice"));
    assertThat(VisitorIds.isVisitorId(plain.visitorOf("shop", "alice"))).isTrue();
  }

  @Test
  void roomsWithoutTheSettingAndRequestsWithoutAnIdentityKeepTheBrowsersId() {
    assertThat(identities.visitor("elsewhere", withHeader("alice"), null)).isNull();
    assertThat(identities.visitor("shop", MockServerHttpRequest.get("/").build(), null)).isNull();
    assertThat(identities.visitor("shop", withHeader("  "), null)).isNull();
    assertThat(identities.visitor("hall", withHeader("alice"), null)).isNull();
    assertThat(identities.binds("shop")).isTrue();
  }

  @Test
  void badSettingsAreRefusedNamingTheRoom() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> IdentitySource.parse("shop", "query:user"))
        .withMessage(
            "anteroom.rooms.shop.identity: must be header:<name> or cookie:<name>; was"
                + " 'query:user'");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> IdentitySource.parse("shop", "header:"))
        .withMessageContaining("anteroom.rooms.shop.identity");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new VisitorProperties("short"))
        .withMessageContaining("identity-secret");
  }
}
