package io.anteroom.bench.micro;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import java.text.ParseException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * What an origin pays to check a pass it has not seen, with nimbus-jose-jwt as most Java origins
 * would: parsing the compact JWS and verifying its signature, HS256 (the shared secret), ES256 (the
 * JDK) and Ed25519 (nimbus's {@code Ed25519Verifier}, which needs Google Tink), over the same
 * payload as a gateway's pass. Each signing is checked once at setup.
 */
public class NimbusVerifyBenchmarks extends MicroDefaults {

  private static final String PAYLOAD =
      "{\"iss\":\"anteroom\",\"sub\":\"vQx3n0kq7S2mB8yZfL1aPg\",\"aud\":\"shop\",\"iat\":1764806400,"
          + "\"exp\":1764810000,\"jti\":\"n8Jm2c0xQeWl4pVb7sYt1A\",\"items\":[{\"item\":\"42\","
          + "\"until\":1764810000000,\"checked\":1764806400000,\"admitted\":1764806400000}]}";

  private String hs256;
  private String es256;
  private String ed25519;
  private JWSVerifier hs256Verifier;
  private JWSVerifier es256Verifier;
  private JWSVerifier ed25519Verifier;

  @Setup
  public void setUp() throws JOSEException, ParseException {
    hs256Verifier = new MACVerifier(KEY);
    hs256 = sign(JWSAlgorithm.HS256, new MACSigner(KEY));
    ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("p1").generate();
    es256Verifier = new ECDSAVerifier(ec.toPublicJWK());
    es256 = sign(JWSAlgorithm.ES256, new ECDSASigner(ec));
    OctetKeyPair ed = new OctetKeyPairGenerator(Curve.Ed25519).keyID("p1").generate();
    ed25519Verifier = new Ed25519Verifier(ed.toPublicJWK());
    ed25519 = sign(JWSAlgorithm.EdDSA, new Ed25519Signer(ed));
    require(verifyHs256(), "the HS256 pass must verify");
    require(verifyEs256(), "the ES256 pass must verify");
    require(verifyEd25519(), "the Ed25519 pass must verify");
  }

  @Benchmark
  public boolean verifyHs256() throws ParseException, JOSEException {
    return JWSObject.parse(hs256).verify(hs256Verifier);
  }

  @Benchmark
  public boolean verifyEs256() throws ParseException, JOSEException {
    return JWSObject.parse(es256).verify(es256Verifier);
  }

  @Benchmark
  public boolean verifyEd25519() throws ParseException, JOSEException {
    return JWSObject.parse(ed25519).verify(ed25519Verifier);
  }

  private static String sign(JWSAlgorithm algorithm, JWSSigner signer) throws JOSEException {
    JWSObject jws =
        new JWSObject(new JWSHeader.Builder(algorithm).keyID("p1").build(), new Payload(PAYLOAD));
    jws.sign(signer);
    return jws.serialize();
  }
}
