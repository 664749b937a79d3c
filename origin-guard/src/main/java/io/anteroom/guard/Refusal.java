package io.anteroom.guard;

import java.util.Locale;

/**
 * Why {@link PassVerifier} refused a pass, in the order it checks; first, why {@link PassGuard}
 * refused a request before looking at its pass.
 */
public enum Refusal {
  /**
   * The path is spelled in a way servers and frameworks read differently (a dot segment, an encoded
   * slash, backslash or percent, a bad escape, a control character), so there is no one path to
   * check a pass for: answered {@code 400}, pass or not.
   */
  AMBIGUOUS_PATH,
  /** The request carries no pass: it did not come through the gateway. */
  MISSING,
  /** Not a compact JWS: empty, too long, bad base64 or JSON, or claims of the wrong form. */
  MALFORMED,
  /**
   * An algorithm not accepted ({@code none}, or HS256 without a secret given to the verifier), or a
   * header naming a key source ({@code jku}, {@code jwk}, {@code x5u}, {@code x5c}) or critical
   * extensions.
   */
  ALGORITHM,
  /** Not a pass: another {@code typ}, such as a ticket. */
  TYPE,
  /** No {@code kid}, or one the gateway's key set does not list even after fetching it again. */
  UNKNOWN_KEY,
  /** The gateway's key set could not be fetched, and none is cached. */
  KEYS_UNAVAILABLE,
  /** The signature does not match: a forged or tampered pass. */
  SIGNATURE,
  /** Issued by another issuer. */
  ISSUER,
  /** Expired beyond the leeway, or issued further than the leeway in the future. */
  EXPIRED,
  /** A pass for another room. */
  WRONG_ROOM,
  /**
   * A pass of the room that does not name the item, or a request naming no item the room reads
   * ({@code 0x1} with {@code item-format: integer}).
   */
  WRONG_ITEM,
  /** A pass that names the item, but whose {@code until} for it has passed beyond the leeway. */
  ITEM_ENDED;

  private final String tag = name().toLowerCase(Locale.ROOT);

  /** The reason in lower case, e.g. {@code wrong_item}: for a response body, a log or a metric. */
  public String tag() {
    return tag;
  }
}
