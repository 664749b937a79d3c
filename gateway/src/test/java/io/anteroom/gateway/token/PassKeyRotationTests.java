package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWKSet;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rotating an Ed25519 pass key as an operator does: the gateways restart with the new key listed
 * and signing and the old one given an accept-until one pass lifetime ahead. The JWKS lists the new
 * key at once and the old one until then, and passes of either verify meanwhile.
 */
class PassKeyRotationTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final PassKey old =
      PassKeyFixtures.key("p1", PassSigning.ED25519, PassKeyFixtures.ed25519());
  private final PassKey fresh =
      PassKeyFixtures.key("p2", PassSigning.ED25519, PassKeyFixtures.ed25519());
  private final Instant oldEnds = clock.instant().plus(LIFETIME);
  private final TokenCodec before =
      PassKeyFixtures.codec(PassKeyFixtures.passKeys(Map.of(), null, clock, old), clock);
  private final PassKeys rotated =
      PassKeyFixtures.passKeys(Map.of("p1", oldEnds), null, clock, fresh, old);
  private final TokenCodec during = PassKeyFixtures.codec(rotated, clock);

  @Test
  void jwksListsTheNewKeyAtOnceAndTheOldOneUntilItsAcceptUntil() throws Exception {
    assertThat(kids(rotated.jwks())).containsExactly("p2", "p1");

    clock.advance(LIFETIME.minusSeconds(1));
    assertThat(kids(rotated.jwks())).containsExactly("p2", "p1");

    clock.advance(Duration.ofSeconds(1));
    assertThat(kids(rotated.jwks())).containsExactly("p2");
  }

  @Test
  void passesSignedByEitherKeyVerifyDuringTheOverlap() {
    String signedByOld = before.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    String signedByNew = during.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(TokenFixtures.part(signedByOld, 0)).contains("\"kid\":\"p1\"");
    assertThat(TokenFixtures.part(signedByNew, 0)).contains("\"kid\":\"p2\"");
    assertThat(during.readPass(signedByOld, ROOM).isValid()).isTrue();
    assertThat(during.readPass(signedByNew, ROOM).isValid()).isTrue();
  }

  @Test
  void passSignedByTheOldKeyIsRefusedOnceItsAcceptUntilHasCome() {
    String signedByOld = before.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME.multipliedBy(2));
    assertThat(during.readPass(signedByOld, ROOM).isValid()).isTrue();

    clock.advance(LIFETIME);

    assertThat(during.readPass(signedByOld, ROOM))
        .isEqualTo(Verified.rejected(Rejection.UNKNOWN_KEY));
  }

  @Test
  void everyKidTheJwksListsIsOneTheGatewayAccepts() throws Exception {
    for (String kid : kids(rotated.jwks())) {
      assertThat(rotated.key(kid)).isNotNull();
    }
    assertThat(rotated.key("p3")).isNull();
  }

  private static List<String> kids(String jwks) throws Exception {
    return JWKSet.parse(jwks).getKeys().stream().map(key -> key.getKeyID()).toList();
  }
}
