package io.anteroom.gateway;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import io.anteroom.gateway.token.JwksEndpoint;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.VisitorIds;
import java.net.http.HttpResponse;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * {@code /_anteroom/jwks.json} of a gateway that signs passes with Ed25519 while rotating from
 * {@code p1} (a PEM, accepted until 2099) to {@code p2} (a JWK): both public keys listed, nothing
 * secret, cacheable, answered with Redis unreachable and without the origin; and the passes the
 * gateway issues verify with the key it lists.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.redis.uri=redis://127.0.0.1:1",
      "anteroom.tokens.pass-signing=ed25519",
      "anteroom.tokens.pass-keys.p1=" + JwksIntegrationTests.P1_PEM,
      "anteroom.tokens.pass-keys.p2=" + JwksIntegrationTests.P2_JWK,
      "anteroom.tokens.pass-signing-kid=p2",
      "anteroom.tokens.pass-accept-until.p1=2099-01-01T00:00:00Z"
    })
class JwksIntegrationTests {

  /** Test keys only: {@code openssl genpkey -algorithm ed25519}, on one line. */
  static final String P1_PEM =
      "-----BEGIN PRIVATE KEY-----"
          + "MC4CAQAwBQYDK2VwBCIEIFaZraKBr/gnwNVGPQBI14xJ6NcgUYURF3tnzy7B23jl"
          + "-----END PRIVATE KEY-----";

  static final String P2_JWK =
      "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"d\":\"81BLgEMU2djkcHhdJJAw-ojiZkfKWsMevuIufHj0DQQ\"}";

  /** The public keys of p1 and p2 as {@code openssl pkey -pubout -outform DER} derives them. */
  static final String P1_PUBLIC_DER =
      "MCowBQYDK2VwAyEAQ8xsACncwZ5/sXIoipWC+LlcuFN2TUIYSn/36F1UG50=";

  static final String P2_PUBLIC_DER =
      "MCowBQYDK2VwAyEAgcaQLaHV4bM9wZwUUD/QM/RDS+VGP0GpZVBhoCzARaY=";

  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired TokenCodec tokens;

  @Test
  void listsEveryAcceptedPassKeyPublicOnlyAndCacheableWithoutRedisOrTheOrigin() throws Exception {
    HttpResponse<String> response = new Visitor(port).json(JwksEndpoint.PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    assertThat(response.headers().firstValue("Cache-Control")).hasValue("max-age=60, public");
    List<JWK> keys = JWKSet.parse(response.body()).getKeys();
    assertThat(keys).extracting(JWK::getKeyID).containsExactly("p2", "p1");
    for (JWK key : keys) {
      assertThat(key).isInstanceOf(OctetKeyPair.class);
      assertThat(key.isPrivate()).isFalse();
      assertThat(key.getAlgorithm().getName()).isEqualTo("EdDSA");
      assertThat(key.getKeyUse().identifier()).isEqualTo("sig");
    }
    assertThat(response.body())
        .doesNotContain("\"d\"")
        .doesNotContain("81BLgEMU2djkcHhdJJAw")
        .doesNotContain(GatewayTestSetup.KEY)
        .doesNotContain(
            Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(Base64.getDecoder().decode(GatewayTestSetup.KEY)));
    assertThat(origin.findAll(anyRequestedFor(anyUrl()))).isEmpty();
  }

  @Test
  void listedPublicKeysAreTheOnesOpensslDerivesFromThePrivateKeys() throws Exception {
    JWKSet listed = JWKSet.parse(new Visitor(port).json(JwksEndpoint.PATH).body());

    assertThat(x(listed, "p1")).isEqualTo(rawKey(P1_PUBLIC_DER));
    assertThat(x(listed, "p2")).isEqualTo(rawKey(P2_PUBLIC_DER));
  }

  @Test
  void passesTheGatewayIssuesVerifyWithTheKeyItLists() throws Exception {
    String pass =
        tokens.issuePass(VisitorIds.newVisitorId(), "shop", List.of("21"), Duration.ofMinutes(5));
    OctetKeyPair listed =
        (OctetKeyPair)
            JWKSet.parse(new Visitor(port).json(JwksEndpoint.PATH).body()).getKeyByKeyId("p2");

    JWSObject jws = JWSObject.parse(pass);
    Signature verifier = Signature.getInstance("Ed25519");
    verifier.initVerify(
        KeyFactory.getInstance("Ed25519")
            .generatePublic(
                new X509EncodedKeySpec(
                    HexFormat.of()
                        .parseHex(
                            "302a300506032b6570032100"
                                + HexFormat.of().formatHex(listed.getX().decode())))));
    verifier.update(jws.getSigningInput());

    assertThat(jws.getHeader().getAlgorithm().getName()).isEqualTo("EdDSA");
    assertThat(jws.getHeader().getKeyID()).isEqualTo("p2");
    assertThat(jws.getHeader().getType().getType()).isEqualTo(TokenCodec.PASS_TYPE);
    assertThat(verifier.verify(jws.getSignature().decode())).isTrue();
    assertThat(tokens.readPass(pass, "shop").isValid()).isTrue();
  }

  private static String x(JWKSet set, String kid) {
    return ((OctetKeyPair) set.getKeyByKeyId(kid)).getX().toString();
  }

  /** The 32 bytes of an Ed25519 key that end its X.509 DER, as a JWK's {@code x} writes them. */
  private static String rawKey(String der) {
    byte[] bytes = Base64.getDecoder().decode(der);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(java.util.Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length));
  }
}
