package io.anteroom.gateway.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.gateway.token.VisitorIds;
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
    String id = identities.visitor("shop", withHeader("alice"));

    assertThat(VisitorIds.isVisitorId(id)).isTrue();
    assertThat(identities.visitor("shop", withHeader(" alice "))).isEqualTo(id);
    assertThat(identities.visitor("shop", withHeader("bob"))).isNotEqualTo(id);
    assertThat(
            identities.visitor(
                "hall",
                MockServerHttpRequest.get("/").cookie(new HttpCookie("uid", "alice")).build()))
        .isNotEqualTo(id)
        .isNotNull();
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
    assertThat(identities.visitor("elsewhere", withHeader("alice"))).isNull();
    assertThat(identities.visitor("shop", MockServerHttpRequest.get("/").build())).isNull();
    assertThat(identities.visitor("shop", withHeader("  "))).isNull();
    assertThat(identities.visitor("hall", withHeader("alice"))).isNull();
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
        .isThrownBy(() -> new VisitorProperties(java.util.List.of(), "short"))
        .withMessageContaining("identity-secret");
  }
}
