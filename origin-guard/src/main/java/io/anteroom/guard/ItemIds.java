package io.anteroom.guard;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Item ids as a pass names them, which is how the gateway keys its queues: the id the request names
 * brought to the room's one spelling ({@link #canonical}), then, if it is 1 to 64 letters, digits,
 * {@code .}, {@code _} or {@code -}, as it is, any other the first 128 bits of its SHA-256 in hex
 * after {@code ~} ({@link #normalise}).
 */
final class ItemIds {

  private static final Pattern RAW = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** Longest raw id an integer room reads, leading zeros included, as the gateway. */
  private static final int MAX_INTEGER_LENGTH = 64;

  private ItemIds() {}

  /**
   * {@code raw} in the one spelling the gateway gives it in a room of {@code format} and {@code
   * itemCase} (its {@code ItemIds.canonical}, less the {@code item-pattern}, which a pass's id
   * already met): {@code 01} and {@code +1} are {@code 1} for integers. Null when the room refuses
   * it.
   */
  static String canonical(
      String raw, GuardSettings.ItemFormat format, GuardSettings.ItemCase itemCase) {
    String id = format == GuardSettings.ItemFormat.INTEGER ? integer(raw) : raw;
    if (id != null && itemCase == GuardSettings.ItemCase.INSENSITIVE) {
      id = id.toLowerCase(Locale.ROOT);
    }
    return id;
  }

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

  /** ASCII digits after an optional sign, as the decimal of a signed 64-bit integer; or null. */
  private static String integer(String raw) {
    int length = raw.length();
    int start = length > 0 && (raw.charAt(0) == '+' || raw.charAt(0) == '-') ? 1 : 0;
    if (start == length || length > MAX_INTEGER_LENGTH) {
      return null;
    }
    for (int i = start; i < length; i++) {
      char c = raw.charAt(i);
      // Not Character.isDigit: full-width and other scripts' digits are refused, not read.
      if (c < '0' || c > '9') {
        return null;
      }
    }
    try {
      return Long.toString(Long.parseLong(raw));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
