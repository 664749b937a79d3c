package io.anteroom.gateway.token;

import com.nimbusds.jose.JWSAlgorithm;

/**
 * How passes are signed ({@code anteroom.tokens.pass-signing}). HS256 keeps the shared secret that
 * tickets and challenges use, so only gateways (and origins given that secret) can check a pass;
 * the asymmetric ones let an origin check passes with the public keys of the gateways' JWKS, never
 * holding anything that could sign one. Tickets and challenges are HS256 whatever this says: only
 * gateways read them.
 */
public enum PassSigning {
  /** HMAC-SHA256 with the HS256 signing key, as tickets are. */
  HS256(JWSAlgorithm.HS256, null, null),
  /** EdDSA over Ed25519 (RFC 8037), the JDK's own implementation; JWK {@code kty: OKP}. */
  ED25519(JWSAlgorithm.EdDSA, "Ed25519", "Ed25519"),
  /** ECDSA over P-256 with SHA-256; the signature is {@code r || s} as JWS wants it. */
  ES256(JWSAlgorithm.ES256, "EC", "SHA256withECDSAinP1363Format");

  private final JWSAlgorithm algorithm;
  private final String keyAlgorithm;
  private final String signatureAlgorithm;

  PassSigning(JWSAlgorithm algorithm, String keyAlgorithm, String signatureAlgorithm) {
    this.algorithm = algorithm;
    this.keyAlgorithm = keyAlgorithm;
    this.signatureAlgorithm = signatureAlgorithm;
  }

  /** The JWS {@code alg} of a pass so signed. */
  public JWSAlgorithm algorithm() {
    return algorithm;
  }

  /** Whether passes are signed with a private key whose public half the JWKS lists. */
  public boolean asymmetric() {
    return this != HS256;
  }

  /** The JCA name of the key type ({@code KeyFactory}, {@code KeyPairGenerator}). */
  String keyAlgorithm() {
    return keyAlgorithm;
  }

  /** The JCA name of the signature algorithm ({@code Signature}). */
  String signatureAlgorithm() {
    return signatureAlgorithm;
  }
}
