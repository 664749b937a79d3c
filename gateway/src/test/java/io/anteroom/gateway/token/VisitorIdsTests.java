package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class VisitorIdsTests {

  @Test
  void newVisitorIdsAre22Base64UrlCharactersAndDistinct() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      String id = VisitorIds.newVisitorId();
      assertThat(id).hasSize(VisitorIds.LENGTH).matches("[A-Za-z0-9_-]{22}");
      assertThat(VisitorIds.isVisitorId(id)).isTrue();
      ids.add(id);
    }
    assertThat(ids).hasSize(1_000);
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "vQx3n0kq7S2mB8yZfL1aP",
        "vQx3n0kq7S2mB8yZfL1aPgA",
        "vQx3n0kq7S2mB8yZfL1aPh",
        "vQx3n0kq7S2mB8yZfL1a+g",
        "vQx3n0kq7S2mB8yZfL1a/g",
        "vQx3n0kq7S2mB8yZfL1a=g",
        "vQx3n0kq7S2mB8yZfL1aég",
        "vQx3n0kq7S2mB8yZfL1aPg=="
      })
  void visitorIdOfAnotherFormIsRefused(String id) {
    assertThat(VisitorIds.isVisitorId(id)).isFalse();
  }

  @Test
  void visitorIdFromADigestKeepsItsFirst128Bits() {
    byte[] digest = new byte[32];
    digest[0] = (byte) 0xff;
    digest[31] = 1;

    assertThat(VisitorIds.fromDigest(digest)).isEqualTo("_wAAAAAAAAAAAAAAAAAAAA");
    assertThat(VisitorIds.isVisitorId(VisitorIds.fromDigest(digest))).isTrue();
    assertThatIllegalArgumentException().isThrownBy(() -> VisitorIds.fromDigest(new byte[8]));
  }
}
