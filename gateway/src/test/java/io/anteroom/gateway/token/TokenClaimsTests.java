package io.anteroom.gateway.token;

import static io.anteroom.gateway.token.TokenFixtures.K1;
import static io.anteroom.gateway.token.TokenFixtures.ROOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.anteroom.queue.time.MutableClock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Well-signed tokens whose claims are missing or of the wrong type. */
class TokenClaimsTests {

  private static final String TICKET_HEADER =
      "{\"alg\":\"HS256\",\"typ\":\"anteroom-ticket+jwt\",\"kid\":\"k1\"}";

  private final MutableClock clock = MutableClock.startingAt2026();
  private final TokenCodec codec = TokenFixtures.codec(clock);

  static Stream<Arguments> passClaimChanges() {
    return Stream.of(
        arguments("iss", null, Rejection.ISSUER),
        arguments("iss", 7, Rejection.ISSUER),
        arguments("aud", null, Rejection.AUDIENCE),
        arguments("aud", List.of(ROOM), Rejection.AUDIENCE),
        arguments("sub", null, Rejection.CLAIMS),
        arguments("sub", 42L, Rejection.CLAIMS),
        arguments("sub", "not-a-visitor-id", Rejection.CLAIMS),
        arguments("sub", "vQx3n0kq7S2mB8yZfL1aPh", Rejection.CLAIMS),
        arguments("iat", null, Rejection.CLAIMS),
        arguments("iat", "2026-06-01", Rejection.CLAIMS),
        arguments("iat", -5L, Rejection.CLAIMS),
        arguments("exp", null, Rejection.CLAIMS),
        arguments("exp", 1.7e9, Rejection.CLAIMS),
        arguments("exp", Long.MAX_VALUE, Rejection.CLAIMS),
        arguments("jti", null, Rejection.CLAIMS),
        arguments("jti", List.of("x"), Rejection.CLAIMS),
        arguments("items", null, Rejection.CLAIMS),
        arguments("items", "sku-1", Rejection.CLAIMS),
        arguments("items", List.of(), Rejection.CLAIMS),
        arguments("items", List.of(1L), Rejection.CLAIMS),
        arguments("items", List.of(""), Rejection.CLAIMS),
        arguments("items", Collections.nCopies(17, "sku-1"), Rejection.CLAIMS),
        arguments("items", Map.of("a", "b"), Rejection.CLAIMS),
        arguments("items", List.of(Map.of("item", "sku-1")), Rejection.CLAIMS),
        arguments(
            "items",
            List.of(Map.of("item", "sku-1", "until", "soon", "checked", 1L)),
            Rejection.CLAIMS),
        arguments(
            "items",
            List.of(Map.of("item", "sku 1", "until", 1L << 42, "checked", 1L)),
            Rejection.CLAIMS),
        arguments(
            "items",
            List.of(Map.of("item", "sku-1", "until", -1L, "checked", 1L)),
            Rejection.CLAIMS),
        arguments(
            "items",
            List.of(Map.of("item", "sku-1", "until", 1L << 42, "checked", 2.5)),
            Rejection.CLAIMS));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("passClaimChanges")
  void passWithMissingOrIllTypedClaimIsRejected(String claim, Object value, Rejection reason) {
    Map<String, Object> claims = TokenFixtures.passClaims(clock);
    replace(claims, claim, value);

    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, K1);

    assertThat(codec.readPass(token, ROOM)).isEqualTo(Verified.rejected(reason));
  }

  static Stream<Arguments> ticketClaimChanges() {
    return Stream.of(
        arguments("item", null, Rejection.CLAIMS),
        arguments("item", 5L, Rejection.CLAIMS),
        arguments("item", "not an item!", Rejection.CLAIMS),
        arguments("sub", null, Rejection.CLAIMS),
        arguments("iat", null, Rejection.CLAIMS),
        arguments("jti", "", Rejection.CLAIMS),
        arguments("place", "12.5", Rejection.CLAIMS),
        arguments("place", List.of(1), Rejection.CLAIMS),
        arguments("aud", "other-room", Rejection.AUDIENCE));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("ticketClaimChanges")
  void ticketWithMissingOrIllTypedClaimIsRejected(String claim, Object value, Rejection reason) {
    Map<String, Object> claims = TokenFixtures.ticketClaims(clock);
    replace(claims, claim, value);

    String token = TokenFixtures.hs256(TICKET_HEADER, claims, K1);

    assertThat(codec.readTicket(token, ROOM)).isEqualTo(Verified.rejected(reason));
  }

  @Test
  void handMadeTicketWithEveryClaimIsValid() {
    String token = TokenFixtures.hs256(TICKET_HEADER, TokenFixtures.ticketClaims(clock), K1);

    assertThat(codec.readTicket(token, ROOM).isValid()).isTrue();
  }

  @Test
  void unknownClaimsAreIgnored() {
    Map<String, Object> claims = TokenFixtures.passClaims(clock);
    claims.put("admin", true);

    String token = TokenFixtures.hs256(TokenFixtures.passHeader("k1"), claims, K1);

    assertThat(codec.readPass(token, ROOM).isValid()).isTrue();
  }

  @Test
  void signedPayloadThatIsNotAJsonObjectIsMalformed() {
    String header = TokenFixtures.passHeader("k1");

    assertThat(codec.readPass(TokenFixtures.hs256(header, "[1,2,3]", K1), ROOM))
        .isEqualTo(Verified.rejected(Rejection.MALFORMED));
    assertThat(codec.readPass(TokenFixtures.hs256(header, "not json", K1), ROOM))
        .isEqualTo(Verified.rejected(Rejection.MALFORMED));
  }

  private static void replace(Map<String, Object> claims, String claim, Object value) {
    if (value == null) {
      claims.remove(claim);
    } else {
      claims.put(claim, value);
    }
  }
}
