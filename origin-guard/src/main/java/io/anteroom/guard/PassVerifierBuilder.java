package io.anteroom.guard;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import java.net.MalformedURLException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Builds a {@link PassVerifier}. Set the gateway's JWK set URL ({@code
 * https://gateway.example/_anteroom/jwks.json}) or a fixed set; everything else has a default.
 */
public final class PassVerifierBuilder {

  /** The asymmetric algorithms a gateway signs passes with. */
  public static final List<String> DEFAULT_ALGORITHMS = List.of("EdDSA", "Ed25519", "ES256");

  /** Largest key set read; a gateway's lists a handful of keys. */
  private static final int MAX_JWKS_BYTES = 64 * 1024;

  private URI jwksUrl;
  private JWKSet jwkSet;
  private String issuer = "anteroom";
  private List<String> algorithms = DEFAULT_ALGORITHMS;
  private byte[] hmacSecret;
  private Duration leeway = Duration.ofSeconds(30);
  private Duration cacheTimeToLive = Duration.ofMinutes(5);
  private Duration refreshMinInterval = Duration.ofSeconds(10);
  private Duration timeout = Duration.ofSeconds(2);
  private Duration outageTolerance = Duration.ofMinutes(15);
  private Clock clock = Clock.systemUTC();

  PassVerifierBuilder() {}

  /** Where the gateway publishes its key set: {@code <gateway>/_anteroom/jwks.json}. */
  public PassVerifierBuilder jwksUrl(URI url) {
    this.jwksUrl = Objects.requireNonNull(url, "url");
    return this;
  }

  /** A fixed key set instead of a URL: no rotation without a restart. */
  public PassVerifierBuilder jwkSet(JWKSet set) {
    this.jwkSet = Objects.requireNonNull(set, "set");
    return this;
  }

  /** The {@code iss} the gateway writes ({@code anteroom.tokens.issuer}); default anteroom. */
  public PassVerifierBuilder issuer(String issuer) {
    this.issuer = issuer;
    return this;
  }

  /** The JWS algorithms accepted; default {@link #DEFAULT_ALGORITHMS}; never HS256 here. */
  public PassVerifierBuilder algorithms(List<String> algorithms) {
    this.algorithms = List.copyOf(algorithms);
    return this;
  }

  /**
   * Also accepts HS256 passes MACed with this secret (a gateway's {@code anteroom.tokens.keys}
   * value, decoded), for a gateway that does not sign asymmetrically: the origin then holds a key
   * that can issue passes. Default none, and HS256 is refused.
   */
  public PassVerifierBuilder hmacSecret(byte[] secret) {
    this.hmacSecret = secret == null ? null : secret.clone();
    return this;
  }

  /** Clock difference tolerated with the gateways, both ways; default 30s. */
  public PassVerifierBuilder leeway(Duration leeway) {
    this.leeway = leeway;
    return this;
  }

  /** How long a fetched key set is used before it is fetched again; default 5m. */
  public PassVerifierBuilder cacheTimeToLive(Duration ttl) {
    this.cacheTimeToLive = ttl;
    return this;
  }

  /**
   * The key set is fetched for unknown kids at most twice per this interval, however many passes
   * name them; default 10s.
   */
  public PassVerifierBuilder refreshMinInterval(Duration interval) {
    this.refreshMinInterval = interval;
    return this;
  }

  /** Connect and read timeout of each fetch of the key set; default 2s. */
  public PassVerifierBuilder timeout(Duration timeout) {
    this.timeout = timeout;
    return this;
  }

  /**
   * How long the last key set fetched is used while the URL cannot be reached, so an unreachable
   * gateway does not turn every holder away; default 15m.
   */
  public PassVerifierBuilder outageTolerance(Duration tolerance) {
    this.outageTolerance = tolerance;
    return this;
  }

  /** The clock times are checked with; default the system's. */
  public PassVerifierBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The verifier.
   *
   * @throws IllegalArgumentException when neither or both of a URL and a set are given, or a value
   *     is out of range
   */
  public PassVerifier build() {
    if ((jwksUrl == null) == (jwkSet == null)) {
      throw new IllegalArgumentException("give either a JWK set URL or a JWK set");
    }
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("issuer must not be blank");
    }
    if (leeway.isNegative()) {
      throw new IllegalArgumentException("leeway must not be negative, was " + leeway);
    }
    if (refreshMinInterval.isNegative()
        || refreshMinInterval.isZero()
        || refreshMinInterval.compareTo(cacheTimeToLive) >= 0) {
      throw new IllegalArgumentException(
          "refresh-min-interval must be positive and shorter than cache-time-to-live, were "
              + refreshMinInterval
              + " and "
              + cacheTimeToLive);
    }
    return new PassVerifier(
        new PassKeys(source(), macVerifier()),
        accepted(),
        new PassClaims(issuer, clock, leeway.toMillis()));
  }

  private Set<JWSAlgorithm> accepted() {
    Set<JWSAlgorithm> accepted = new LinkedHashSet<>();
    for (String name : algorithms) {
      JWSAlgorithm alg = JWSAlgorithm.parse(name);
      if (!JWSAlgorithm.Family.SIGNATURE.contains(alg)) {
        throw new IllegalArgumentException(
            "algorithm " + name + " is not an asymmetric JWS algorithm; HS256 needs hmacSecret");
      }
      accepted.add(alg);
    }
    if (hmacSecret != null) {
      accepted.add(JWSAlgorithm.HS256);
    }
    if (accepted.isEmpty()) {
      throw new IllegalArgumentException("no algorithm accepted");
    }
    return accepted;
  }

  private MACVerifier macVerifier() {
    if (hmacSecret == null) {
      return null;
    }
    try {
      return new MACVerifier(hmacSecret);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("the HS256 secret must be at least 32 bytes", e);
    }
  }

  private JWKSource<SecurityContext> source() {
    if (jwkSet != null) {
      return new ImmutableJWKSet<>(jwkSet);
    }
    int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    try {
      JWKSourceBuilder<SecurityContext> source =
          JWKSourceBuilder.<SecurityContext>create(
                  jwksUrl.toURL(), new DefaultResourceRetriever(millis, millis, MAX_JWKS_BYTES))
              .cache(
                  cacheTimeToLive.toMillis(), Math.min(cacheTimeToLive.toMillis() / 2, 2L * millis))
              .refreshAheadCache(false)
              .rateLimited(refreshMinInterval.toMillis());
      if (outageTolerance.isNegative() || outageTolerance.isZero()) {
        source.outageTolerant(false);
      } else {
        source.outageTolerant(outageTolerance.toMillis());
      }
      return source.build();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a JWK set URL: " + jwksUrl, e);
    }
  }
}
