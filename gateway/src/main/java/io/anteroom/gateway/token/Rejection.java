package io.anteroom.gateway.token;

import java.util.Locale;

/** Why a token was not accepted, in the order {@link TokenCodec} checks. */
public enum Rejection {
  /**
   * Not a compact JWS Anteroom can read: empty, too long (token or header), bad base64, bad JSON.
   */
  MALFORMED,
  /** An algorithm other than HS256, or a header naming a key source or critical extensions. */
  ALGORITHM,
  /**
   * No {@code kid}, one longer than 64 characters, one not in the key set, or one past its
   * accept-until instant (a key that was rotated out).
   */
  UNKNOWN_KEY,
  /** The signature does not match: a forged or tampered token. */
  SIGNATURE,
  /** The wrong {@code typ}: a ticket presented as a pass, or the reverse. */
  TYPE,
  /** Signed by a key we hold but for another issuer. */
  ISSUER,
  /** Issued for another room. */
  AUDIENCE,
  /** A pass past its expiry, or a ticket older than the maximum age, beyond the leeway. */
  EXPIRED,
  /** Issued more than the leeway in the future. */
  NOT_YET_VALID,
  /** A claim missing or of the wrong type, or a visitor id not of the expected form. */
  CLAIMS,
  /**
   * A valid token for another queue of the room, or whose item there has ended; found by the caller
   * with {@link Pass#opens}.
   */
  WRONG_QUEUE,
  /**
   * A pass whose session in that queue has ended in Redis (released, expired, or never recorded): a
   * copy of a pass, or one kept past its session; found by the caller when confirming it.
   */
  SESSION_ENDED,
  /** A proof-of-work answer whose counter does not solve its challenge, or too easy a one. */
  PROOF,
  /** Several cookies of the same name: none of them is read, whichever a browser sent first. */
  DUPLICATE;

  private final String tag = name().toLowerCase(Locale.ROOT);

  /** The reason as a metric tag value, e.g. {@code unknown_key}. */
  public String tag() {
    return tag;
  }
}
