package io.anteroom.gateway.token;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How passes are signed, beside {@link TokenProperties} under the same prefix. With {@code
 * pass-signing: ed25519} (or {@code es256}) passes are signed with a private key and every gateway
 * lists the public keys at {@code /_anteroom/jwks.json}, so an origin can check passes without a
 * secret; tickets and challenges stay HS256. Rotating a pass key: add the new key (the JWKS lists
 * it at once), switch {@code pass-signing-kid} to it, give the old key a {@code pass-accept-until}
 * one pass lifetime ahead (it stays listed and accepted until then), and remove it after.
 *
 * @param passSigning {@code hs256}, {@code ed25519} or {@code es256}; default {@code hs256} (passes
 *     signed as tickets are, and an empty JWKS)
 * @param passSigningKid the kid of the pass key that signs new passes; default the only pass key
 *     when there is exactly one
 * @param passKeys the private pass keys by kid, each a PKCS#8 PEM or a private JWK of the {@code
 *     pass-signing} algorithm; every one is listed in the JWKS and accepted; default none (with
 *     {@code generate-dev-key}, a generated one of kid {@value #DEV_KID})
 * @param passAcceptUntil for pass keys being rotated out, by kid, the instant (ISO-8601) from which
 *     the passes they signed are refused and the key leaves the JWKS; never the signing kid;
 *     default none
 * @param hs256PassesUntil with an asymmetric {@code pass-signing}, the instant until which passes
 *     signed with the HS256 keys are still accepted (set it one pass lifetime after switching, so
 *     the switch logs nobody out); default none: refused at once
 */
@ConfigurationProperties("anteroom.tokens")
public record PassKeyProperties(
    @DefaultValue("hs256") PassSigning passSigning,
    String passSigningKid,
    Map<String, String> passKeys,
    Map<String, String> passAcceptUntil,
    String hs256PassesUntil) {

  /** The kid of a generated development pass key. */
  public static final String DEV_KID = "dev-pass";

  private static final Pattern KID = TokenProperties.KID;

  private static final String PREFIX = TokenProperties.PREFIX;

  public PassKeyProperties {
    passSigning = passSigning == null ? PassSigning.HS256 : passSigning;
    passKeys = TokenProperties.nonBlank(passKeys);
    passAcceptUntil = passAcceptUntil == null ? Map.of() : Map.copyOf(passAcceptUntil);
    boolean named = passSigningKid != null && !passSigningKid.isBlank();
    hs256PassesUntil =
        hs256PassesUntil == null || hs256PassesUntil.isBlank() ? null : hs256PassesUntil.trim();
    if (!passSigning.asymmetric()) {
      if (!passKeys.isEmpty() || named || !passAcceptUntil.isEmpty() || hs256PassesUntil != null) {
        throw new IllegalArgumentException(
            PREFIX
                + "pass-keys, pass-signing-kid, pass-accept-until and hs256-passes-until need"
                + " pass-signing: ed25519 or es256");
      }
    }
    for (String kid : passKeys.keySet()) {
      if (!KID.matcher(kid).matches()) {
        throw new IllegalArgumentException(
            PREFIX
                + "pass-keys."
                + kid
                + ": a kid is 1 to "
                + TokenProperties.MAX_KID_LENGTH
                + " letters, digits, '.', '_' or '-'");
      }
    }
    if (named && !passKeys.isEmpty() && !passKeys.containsKey(passSigningKid)) {
      throw new IllegalArgumentException(
          PREFIX
              + "pass-signing-kid: '"
              + passSigningKid
              + "' is not one of the pass keys "
              + new TreeSet<>(passKeys.keySet()));
    }
    if (!named && passKeys.size() > 1) {
      throw new IllegalArgumentException(
          PREFIX
              + "pass-signing-kid: required when several pass keys are configured "
              + new TreeSet<>(passKeys.keySet()));
    }
    if (!named && passKeys.size() == 1) {
      passSigningKid = passKeys.keySet().iterator().next();
    } else if (!named) {
      passSigningKid = passSigning.asymmetric() ? DEV_KID : null;
    }
    for (Map.Entry<String, String> entry : passAcceptUntil.entrySet()) {
      TokenProperties.instant("pass-accept-until." + entry.getKey(), entry.getValue());
      if (entry.getKey().equals(passSigningKid) || !passKeys.containsKey(entry.getKey())) {
        throw new IllegalArgumentException(
            PREFIX
                + "pass-accept-until."
                + entry.getKey()
                + ": must name a pass key other than the signing one");
      }
    }
    if (hs256PassesUntil != null) {
      TokenProperties.instant("hs256-passes-until", hs256PassesUntil);
    }
  }

  /** {@link #passAcceptUntil()} parsed. */
  public Map<String, Instant> passAcceptUntilInstants() {
    Map<String, Instant> instants = new LinkedHashMap<>();
    passAcceptUntil.forEach(
        (kid, value) ->
            instants.put(kid, TokenProperties.instant("pass-accept-until." + kid, value)));
    return instants;
  }

  /** {@link #hs256PassesUntil()} parsed, or null. */
  public Instant hs256PassesUntilInstant() {
    return hs256PassesUntil == null
        ? null
        : TokenProperties.instant("hs256-passes-until", hs256PassesUntil);
  }

  /** Names the pass keys but never shows one, so logging the properties is safe. */
  @Override
  public String toString() {
    return "PassKeyProperties[passSigning=%s, passSigningKid=%s, passKeys=%s, passAcceptUntil=%s, hs256PassesUntil=%s]"
        .formatted(
            passSigning,
            passSigningKid,
            new TreeSet<>(passKeys.keySet()),
            new TreeMap<>(passAcceptUntil),
            hs256PassesUntil);
  }
}
