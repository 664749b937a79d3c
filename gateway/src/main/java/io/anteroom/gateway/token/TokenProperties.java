package io.anteroom.gateway.token;

import io.anteroom.queue.policy.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How passes and tickets are signed. Rotating a key: add the new key, switch {@code signing-key} to
 * it, give the old key an {@code accept-until} one pass lifetime ahead, and remove it after. {@code
 * config/anteroom.yml} can take the key from the environment with {@code keys: { main:
 * "${ANTEROOM_TOKEN_KEY:}" }}: a blank value counts as no key.
 *
 * @param issuer the {@code iss} of every token; default {@code anteroom}
 * @param signingKey the kid of the key that signs new tokens; default the only key when there is
 *     exactly one
 * @param keys the keys by kid, each base64 (standard or URL-safe) of at least 32 bytes; every one
 *     is accepted when verifying; a kid is 1 to {@value #MAX_KID_LENGTH} characters of letters,
 *     digits, {@code .}, {@code _} and {@code -}; default none
 * @param acceptUntil for keys being rotated out, by kid, the instant (ISO-8601, e.g. {@code
 *     2026-12-04T08:00:00Z}) from which the tokens they signed are refused; never the signing key;
 *     default none (every listed key is accepted)
 * @param generateDevKey with no keys, generate a random one (kid {@value #DEV_KID}) instead of
 *     failing; tokens then die with the process and work on one gateway only; default false
 * @param leeway clock difference tolerated between gateways for expiry and issue times; default
 *     {@code 30s}
 * @param ticketMaxAge tickets older than this are rejected; default {@code 24h}
 */
@ConfigurationProperties("anteroom.tokens")
public record TokenProperties(
    @DefaultValue("anteroom") String issuer,
    String signingKey,
    Map<String, String> keys,
    Map<String, String> acceptUntil,
    @DefaultValue("false") boolean generateDevKey,
    @DefaultValue("30s") Duration leeway,
    @DefaultValue("24h") Duration ticketMaxAge) {

  /** The kid of a generated development key. */
  public static final String DEV_KID = "dev";

  /** Shortest accepted secret: HS256 needs a key as long as its hash. */
  public static final int MIN_KEY_BYTES = 32;

  /** Longest kid; a token naming a longer one is refused before any lookup. */
  public static final int MAX_KID_LENGTH = 64;

  /** A key id: what {@code keys.<kid>} and {@code pass-keys.<kid>} may be named. */
  static final Pattern KID = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_KID_LENGTH + "}");

  static final String PREFIX = "anteroom.tokens.";

  public TokenProperties {
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException(PREFIX + "issuer: must not be blank");
    }
    keys = nonBlank(keys);
    keys.forEach(
        (kid, value) -> {
          if (!KID.matcher(kid).matches()) {
            throw new IllegalArgumentException(
                PREFIX
                    + "keys."
                    + kid
                    + ": a kid is 1 to "
                    + MAX_KID_LENGTH
                    + " letters, digits, '.', '_' or '-'");
          }
          decode(kid, value);
        });
    signingKey = signingKid(signingKey, keys, generateDevKey);
    acceptUntil = acceptUntil == null ? Map.of() : Map.copyOf(acceptUntil);
    acceptUntil.forEach((kid, value) -> instant("accept-until." + kid, value));
    if (acceptUntil.containsKey(signingKey)) {
      throw new IllegalArgumentException(
          PREFIX + "accept-until." + signingKey + ": the signing key cannot have an end");
    }
    for (String kid : acceptUntil.keySet()) {
      if (!keys.containsKey(kid)) {
        throw new IllegalArgumentException(
            PREFIX + "accept-until." + kid + ": not one of the keys " + sorted(keys));
      }
    }
    if (ticketMaxAge.isZero()) {
      throw new IllegalArgumentException(PREFIX + "ticket-max-age: must be longer than 0");
    }
  }

  /** The configured secrets by kid, decoded; empty when a development key is to be generated. */
  public Map<String, byte[]> secrets() {
    Map<String, byte[]> secrets = new LinkedHashMap<>();
    keys.forEach((kid, value) -> secrets.put(kid, decode(kid, value)));
    return secrets;
  }

  /** {@link #acceptUntil()} parsed. */
  public Map<String, Instant> acceptUntilInstants() {
    Map<String, Instant> instants = new LinkedHashMap<>();
    acceptUntil.forEach((kid, value) -> instants.put(kid, instant("accept-until." + kid, value)));
    return instants;
  }

  /** Names the keys but never shows a secret, so logging the properties is safe. */
  @Override
  public String toString() {
    return ("TokenProperties[issuer=%s, signingKey=%s, keys=%s, acceptUntil=%s, generateDevKey=%s,"
            + " leeway=%s, ticketMaxAge=%s]")
        .formatted(
            issuer,
            signingKey,
            sorted(keys),
            new TreeMap<>(acceptUntil),
            generateDevKey,
            Durations.format(leeway),
            Durations.format(ticketMaxAge));
  }

  /** The entries with a value, trimmed; shared with {@link PassKeyProperties}. */
  static Map<String, String> nonBlank(Map<String, String> keys) {
    Map<String, String> kept = new LinkedHashMap<>();
    if (keys != null) {
      keys.forEach(
          (kid, value) -> {
            if (value != null && !value.isBlank()) {
              kept.put(kid, value.trim());
            }
          });
    }
    return Map.copyOf(kept);
  }

  private static byte[] decode(String kid, String value) {
    byte[] secret;
    try {
      // The standard decoder reads the URL-safe alphabet once mapped, with or without padding.
      secret = Base64.getDecoder().decode(value.replace('-', '+').replace('_', '/'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          PREFIX + "keys." + kid + ": not base64 (standard or URL-safe alphabet)");
    }
    if (secret.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException(
          PREFIX
              + "keys."
              + kid
              + ": must be at least "
              + MIN_KEY_BYTES
              + " bytes once base64-decoded, was "
              + secret.length);
    }
    return secret;
  }

  /**
   * The instant of the setting {@code anteroom.tokens.<name>}; shared with {@link
   * PassKeyProperties}.
   */
  static Instant instant(String name, String value) {
    try {
      return Instant.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          PREFIX + name + ": not an ISO-8601 instant such as 2026-12-04T08:00:00Z");
    }
  }

  private static String signingKid(String signingKey, Map<String, String> keys, boolean dev) {
    boolean named = signingKey != null && !signingKey.isBlank();
    if (keys.isEmpty()) {
      if (!dev) {
        throw new IllegalArgumentException(
            PREFIX
                + "keys: no signing key configured; set ANTEROOM_TOKEN_KEY (base64, 32+ bytes) or "
                + PREFIX
                + "keys.<kid>");
      }
      if (named && !signingKey.equals(DEV_KID)) {
        throw new IllegalArgumentException(
            PREFIX + "signing-key: '" + signingKey + "' is not configured in " + PREFIX + "keys");
      }
      return DEV_KID;
    }
    if (!named) {
      if (keys.size() > 1) {
        throw new IllegalArgumentException(
            PREFIX + "signing-key: required when several keys are configured " + sorted(keys));
      }
      return keys.keySet().iterator().next();
    }
    if (!keys.containsKey(signingKey)) {
      throw new IllegalArgumentException(
          PREFIX + "signing-key: '" + signingKey + "' is not one of the keys " + sorted(keys));
    }
    return signingKey;
  }

  private static TreeSet<String> sorted(Map<String, String> keys) {
    return new TreeSet<>(keys.keySet());
  }
}
