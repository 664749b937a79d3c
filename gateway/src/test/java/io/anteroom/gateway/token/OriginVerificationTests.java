package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.proc.SingleKeyJWSKeySelector;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.anteroom.queue.QueueId;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * How an origin checks the pass the gateway forwards, with nimbus-jose-jwt alone. Anteroom's
 * classes only issue the tokens here; the origin knows the shared key (the same base64 text as
 * {@code ANTEROOM_TOKEN_KEY}), the issuer and its room.
 */
class OriginVerificationTests {

  private static final String SHARED_KEY = Base64.getEncoder().encodeToString(TokenFixtures.K1);
  private static final String ROOM = "flash-sale";

  private final TokenCodec gateway = gatewayAt(Clock.systemUTC());

  @Test
  void originAcceptsAForwardedPassAndReadsItsClaims() throws Exception {
    String pass = gateway.issuePass(TokenFixtures.VISITOR, ROOM, List.of("sku-1"), minutes(10));

    JWTClaimsSet claims = originProcessor().process(pass, null);

    assertThat(claims.getSubject()).isEqualTo(TokenFixtures.VISITOR);
    assertThat(claims.getAudience()).containsExactly(ROOM);
    List<Object> items = claims.getListClaim("items");
    assertThat(items).hasSize(1);
    Map<?, ?> item = (Map<?, ?>) items.get(0);
    assertThat(item.get("item")).isEqualTo("sku-1");
    // Item ends are in milliseconds; exp is the latest of them, rounded up to the second.
    assertThat(((Long) item.get("until") + 999) / 1000)
        .isEqualTo(claims.getExpirationTime().getTime() / 1000);
  }

  @Test
  void originRefusesATicket() {
    String ticket = gateway.issueTicket(TokenFixtures.VISITOR, QueueId.roomWide(ROOM));

    assertThatExceptionOfType(BadJOSEException.class)
        .isThrownBy(() -> originProcessor().process(ticket, null))
        .withMessageContaining("type");
  }

  @Test
  void originRefusesAPassForAnotherRoom() {
    String pass = gateway.issuePass(TokenFixtures.VISITOR, "other-room", List.of("_"), minutes(10));

    assertThatExceptionOfType(BadJOSEException.class)
        .isThrownBy(() -> originProcessor().process(pass, null))
        .withMessageContaining("aud claim rejected");
  }

  @Test
  void originRefusesAnExpiredPass() {
    TokenCodec earlier = gatewayAt(Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)));
    String pass = earlier.issuePass(TokenFixtures.VISITOR, ROOM, List.of("_"), minutes(10));

    assertThatExceptionOfType(BadJOSEException.class)
        .isThrownBy(() -> originProcessor().process(pass, null))
        .withMessageContaining("Expired");
  }

  @Test
  void originWithOneKeyCanIgnoreTheKid() throws Exception {
    SecretKey key = new SecretKeySpec(Base64.getDecoder().decode(SHARED_KEY), "HmacSHA256");
    String pass = gateway.issuePass(TokenFixtures.VISITOR, ROOM, List.of("_"), minutes(10));

    DefaultJWTProcessor<SecurityContext> processor = originProcessor();
    processor.setJWSKeySelector(new SingleKeyJWSKeySelector<>(JWSAlgorithm.HS256, key));

    assertThat(processor.process(pass, null).getSubject()).isEqualTo(TokenFixtures.VISITOR);
  }

  @Test
  void immutableSecretFindsNoKeyForAPassBecauseItsKeyHasNoKid() {
    byte[] secret = Base64.getDecoder().decode(SHARED_KEY);
    String pass = gateway.issuePass(TokenFixtures.VISITOR, ROOM, List.of("_"), minutes(10));

    DefaultJWTProcessor<SecurityContext> processor = originProcessor();
    processor.setJWSKeySelector(
        new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableSecret<>(secret)));

    assertThatExceptionOfType(BadJOSEException.class)
        .isThrownBy(() -> processor.process(pass, null))
        .withMessageContaining("no matching key");
  }

  @Test
  void originFollowsKeyRotationWithAKeySetByKid() throws Exception {
    TokenCodec rotated =
        TokenFixtures.codec(
            new TokenKeys("new", Map.of("old", TokenFixtures.K1, "new", TokenFixtures.K2)),
            Clock.systemUTC());
    String pass = rotated.issuePass(TokenFixtures.VISITOR, ROOM, List.of("_"), minutes(10));
    JWKSet keys =
        new JWKSet(
            List.of(
                new OctetSequenceKey.Builder(TokenFixtures.K1).keyID("old").build(),
                new OctetSequenceKey.Builder(TokenFixtures.K2).keyID("new").build()));

    DefaultJWTProcessor<SecurityContext> processor = originProcessor();
    processor.setJWSKeySelector(
        new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableJWKSet<>(keys)));

    assertThat(processor.process(pass, null).getSubject()).isEqualTo(TokenFixtures.VISITOR);
  }

  /**
   * What an origin configures once at start-up: the accepted keys by kid (all of them during a
   * rotation), the pass type, the issuer and its room.
   */
  private static DefaultJWTProcessor<SecurityContext> originProcessor() {
    byte[] secret = Base64.getDecoder().decode(SHARED_KEY);
    JWKSet keys = new JWKSet(new OctetSequenceKey.Builder(secret).keyID("k1").build());

    DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    processor.setJWSTypeVerifier(
        new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("anteroom-pass+jwt")));
    processor.setJWSKeySelector(
        new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableJWKSet<>(keys)));
    processor.setJWTClaimsSetVerifier(
        new DefaultJWTClaimsVerifier<>(
            ROOM,
            new JWTClaimsSet.Builder().issuer("anteroom").build(),
            Set.of("iss", "aud", "exp", "sub")));
    return processor;
  }

  private static TokenCodec gatewayAt(Clock clock) {
    return TokenFixtures.codec(clock);
  }

  private static Duration minutes(long minutes) {
    return Duration.ofMinutes(minutes);
  }
}
