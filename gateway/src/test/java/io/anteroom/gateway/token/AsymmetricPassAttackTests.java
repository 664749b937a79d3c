package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.LIFETIME;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static io.anteroom.gateway.token.TokenFixtures.VISITOR;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.util.JSONObjectUtils;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.time.MutableClock;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forged passes at a gateway that signs passes with Ed25519: wrong keys, algorithm confusion (an
 * HMAC keyed with the public key, another asymmetric alg, {@code none}), HS256 passes after the
 * switch, and the reverse at a gateway that signs passes with HS256. Each is refused with its
 * reason; none throws.
 */
class AsymmetricPassAttackTests {

  private final MutableClock clock = MutableClock.startingAt2026();
  private final KeyPair pair = PassKeyFixtures.ed25519();
  private final PassKey key = PassKeyFixtures.key("p1", PassSigning.ED25519, pair);
  private final TokenCodec ed25519 = PassKeyFixtures.codec(PassKeyFixtures.passKeys(key), clock);
  private final String claims = JSONObjectUtils.toJSONString(TokenFixtures.passClaims(clock));

  @Test
  void passSignedWithTheGatewaysKeyIsAccepted() {
    String token =
        PassKeyFixtures.signed(
            PassKeyFixtures.passHeader("EdDSA", "p1"),
            claims,
            PassSigning.ED25519,
            pair.getPrivate());

    assertThat(ed25519.readPass(token, ROOM).isValid()).isTrue();
  }

  @Test
  void passSignedWithAnotherEd25519KeyUnderOurKidIsRejectedForSignature() {
    String token =
        PassKeyFixtures.signed(
            PassKeyFixtures.passHeader("EdDSA", "p1"),
            claims,
            PassSigning.ED25519,
            PassKeyFixtures.ed25519().getPrivate());

    assertThat(ed25519.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.SIGNATURE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"p1", "k1"})
  void hs256PassKeyedWithThePublicKeyIsRefused(String kid) {
    byte[] publicDer = pair.getPublic().getEncoded();
    String publicJwkX = (String) key.publicJwk().get("x");

    for (byte[] secret :
        List.of(publicDer, publicJwkX.getBytes(StandardCharsets.US_ASCII), padded(publicDer))) {
      String token = TokenFixtures.hs256(TokenFixtures.passHeader(kid), claims, secret);
      assertThat(ed25519.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
    }
  }

  @Test
  void hs256PassSignedWithTheTicketKeyIsRefusedOnceItsAcceptUntilIsUnset() {
    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, K1);

    assertThat(ed25519.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @Test
  void hs256PassIsAcceptedUntilHs256PassesUntilAndRefusedFromThenOn() {
    TokenCodec switching =
        PassKeyFixtures.codec(
            PassKeyFixtures.passKeys(Map.of(), clock.instant().plus(LIFETIME), clock, key), clock);
    String before = TokenFixtures.codec(clock).issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    String hmacWithPublicKey =
        TokenFixtures.hs256(TokenFixtures.passHeader("p1"), claims, pair.getPublic().getEncoded());

    assertThat(switching.readPass(before, ROOM).isValid()).isTrue();
    assertThat(switching.readPass(hmacWithPublicKey, ROOM))
        .isEqualTo(Verified.rejected(Rejection.UNKNOWN_KEY));
    clock.advance(LIFETIME);
    assertThat(switching.readPass(before, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "EdDSA", "Ed25519", "RS256", "none"})
  void asymmetricPassAtAGatewaySigningPassesWithHs256IsRefusedForAlgorithm(String alg) {
    String token =
        PassKeyFixtures.signed(
            PassKeyFixtures.passHeader(alg, "p1"), claims, PassSigning.ED25519, pair.getPrivate());

    assertThat(TokenFixtures.codec(clock).readPass(token, ROOM))
        .isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ES256", "Ed25519", "RS256", "HS512"})
  void ourSignatureUnderAnotherAlgIsRefusedForAlgorithm(String alg) {
    String token =
        PassKeyFixtures.signed(
            PassKeyFixtures.passHeader(alg, "p1"), claims, PassSigning.ED25519, pair.getPrivate());

    assertThat(ed25519.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @Test
  void unsignedPassWithAlgNoneIsRefusedForAlgorithm() {
    String token =
        TokenFixtures.encode(PassKeyFixtures.passHeader("none", "p1"))
            + "."
            + TokenFixtures.encode(claims)
            + ".";

    assertThat(ed25519.readPass(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @Test
  void ticketSignedWithThePassKeyIsRefusedForAlgorithm() {
    String header = "{\"alg\":\"EdDSA\",\"typ\":\"anteroom-ticket+jwt\",\"kid\":\"p1\"}";
    String ticketClaims = JSONObjectUtils.toJSONString(TokenFixtures.ticketClaims(clock));
    String token =
        PassKeyFixtures.signed(header, ticketClaims, PassSigning.ED25519, pair.getPrivate());

    assertThat(ed25519.readTicket(token, ROOM)).isEqualTo(Verified.rejected(Rejection.ALGORITHM));
  }

  @Test
  void ticketsStayHs256AndPassesDoNotOpenAsTickets() {
    String ticket = ed25519.issueTicket(VISITOR, QueueId.roomWide(ROOM));
    String pass = ed25519.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);

    assertThat(TokenFixtures.part(ticket, 0)).contains("\"alg\":\"HS256\"");
    assertThat(ed25519.readTicket(ticket, ROOM).isValid()).isTrue();
    assertThat(ed25519.readTicket(pass, ROOM).isValid()).isFalse();
  }

  @Test
  void passWithATamperedPayloadOrATruncatedSignatureIsRejectedForSignature() {
    String pass = ed25519.issuePass(VISITOR, ROOM, List.of("_"), LIFETIME);
    String[] parts = pass.split("\\.");
    String otherClaims = TokenFixtures.encode(claims.replace(VISITOR, "AAAAAAAAAAAAAAAAAAAAAA"));

    assertThat(ed25519.readPass(parts[0] + "." + otherClaims + "." + parts[2], ROOM))
        .isEqualTo(Verified.rejected(Rejection.SIGNATURE));
    assertThat(ed25519.readPass(parts[0] + "." + parts[1] + "." + parts[2].substring(4), ROOM))
        .isEqualTo(Verified.rejected(Rejection.SIGNATURE));
    assertThat(ed25519.readPass(pass, ROOM).isValid()).isTrue();
  }

  @Test
  void aPassReadAgainIsServedFromTheCacheAndStillExpires() {
    String pass = ed25519.issuePass(VISITOR, ROOM, List.of("_"), Duration.ofMinutes(1));

    assertThat(ed25519.readPass(pass, ROOM).isValid()).isTrue();
    assertThat(ed25519.readPass(pass, ROOM).isValid()).isTrue();
    clock.advance(Duration.ofMinutes(2));
    assertThat(ed25519.readPass(pass, ROOM)).isEqualTo(Verified.rejected(Rejection.EXPIRED));
  }

  /** The public key as a PEM file's text, which a naive verifier might use as the HMAC key. */
  private static byte[] padded(byte[] der) {
    return ("-----BEGIN PUBLIC KEY-----\n"
            + java.util.Base64.getMimeEncoder().encodeToString(der)
            + "\n-----END PUBLIC KEY-----\n")
        .getBytes(StandardCharsets.US_ASCII);
  }
}
