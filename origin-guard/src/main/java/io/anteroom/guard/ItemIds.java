package io.anteroom.guard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Item ids as a pass names them, which is how the gateway keys its queues: an id of 1 to 64
 * letters, digits, {@code .}, {@code _} or {@code -} as it is, any other the first 128 bits of its
 * SHA-256 in hex after {@code ~}.
 */
final class ItemIds {

  private static final Pattern RAW = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private ItemIds() {}

  /** {@code raw} as a pass names it; null for a null or empty id. */
  static String normalise(String raw) {
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    if (RAW.matcher(raw).matches()) {
      return raw;
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(raw.getBytes(StandardCharsets.UTF_8));
      return "~" + HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
