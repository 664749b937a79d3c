package io.anteroom.gateway.token;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * Visitor ids: 128 bits, base64url without padding, so always {@value #LENGTH} characters. Every id
 * in a pass or ticket has this form; an id derived from a user's identity must be encoded the same
 * way ({@link #fromDigest}).
 */
public final class VisitorIds {

  /** Characters in a visitor id. */
  public static final int LENGTH = 22;

  private static final int BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
  private static final boolean[] ALPHABET = alphabet();

  private VisitorIds() {}

  /** A new random visitor id. */
  public static String newVisitorId() {
    return random128();
  }

  /** 128 random bits in the visitor id form; also used for token ids. */
  static String random128() {
    byte[] bits = new byte[BYTES];
    RANDOM.nextBytes(bits);
    return BASE64URL.encodeToString(bits);
  }

  /** The visitor id made of the first 128 bits of {@code digest} (a keyed hash of a user id). */
  public static String fromDigest(byte[] digest) {
    if (digest.length < BYTES) {
      throw new IllegalArgumentException("a visitor id needs 16 bytes, got " + digest.length);
    }
    return BASE64URL.encodeToString(Arrays.copyOf(digest, BYTES));
  }

  /**
   * Whether {@code id} is the canonical encoding of 128 bits: 22 base64url characters, the last of
   * which carries only two bits (so it is one of {@code A Q g w}).
   */
  public static boolean isVisitorId(String id) {
    if (id == null || id.length() != LENGTH) {
      return false;
    }
    for (int i = 0; i < LENGTH - 1; i++) {
      char c = id.charAt(i);
      if (c >= ALPHABET.length || !ALPHABET[c]) {
        return false;
      }
    }
    char last = id.charAt(LENGTH - 1);
    return last == 'A' || last == 'Q' || last == 'g' || last == 'w';
  }

  private static boolean[] alphabet() {
    boolean[] allowed = new boolean[128];
    String chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 0; i < chars.length(); i++) {
      allowed[chars.charAt(i)] = true;
    }
    return allowed;
  }
}
