package io.anteroom.gateway.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * One admin token as the gateway keeps it: the operator's name, the role, and the SHA-256 digest of
 * the token (never the token itself, so a leaked configuration lets nobody in).
 *
 * @param name letters, digits, {@code -} and {@code _}, at most {@value #MAX_NAME} characters; the
 *     {@code who} of every audit entry made with the token
 */
record NamedToken(String name, Role role, byte[] digest) {

  static final int MAX_NAME = 64;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_NAME + "}");
  private static final Pattern HEX_DIGEST = Pattern.compile("[0-9a-fA-F]{64}");

  NamedToken {
    digest = digest.clone();
  }

  /**
   * Checks one configured entry; {@code source} names where it came from in the exception's
   * message, such as {@code anteroom.admin.tokens.alice}.
   */
  static NamedToken parse(String source, String name, String role, String sha256) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          source + ": a token's name is 1 to " + MAX_NAME + " letters, digits, '-' or '_'");
    }
    Role parsed;
    try {
      parsed = Role.parse(role);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
    String hex = sha256 == null ? "" : sha256.strip();
    if (!HEX_DIGEST.matcher(hex).matches()) {
      throw new IllegalArgumentException(
          source
              + ": sha256 must be the 64 hex digits of the token's SHA-256, as printed by:"
              + " printf %s \"$TOKEN\" | sha256sum");
    }
    return new NamedToken(name, parsed, HexFormat.of().parseHex(hex));
  }

  /** The SHA-256 of {@code token}'s UTF-8 bytes. */
  static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * Whether {@code given} is this token's digest, in time that does not depend on where they
   * differ.
   */
  boolean matches(byte[] given) {
    return MessageDigest.isEqual(digest, given);
  }

  @Override
  public byte[] digest() {
    return digest.clone();
  }

  /** Never shows the digest. */
  @Override
  public String toString() {
    return name + "(" + role.value() + ")";
  }
}
