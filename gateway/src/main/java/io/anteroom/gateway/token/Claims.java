package io.anteroom.gateway.token;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Typed reads of parsed claims that answer "absent" instead of throwing on the wrong type. */
final class Claims {

  /** What {@link #seconds} answers for an absent, ill-typed or out-of-range time. */
  static final long ABSENT = -1;

  /** 9999-12-31T23:59:59Z: later times are nonsense, and would overflow in milliseconds. */
  private static final long MAX_SECONDS = 253_402_300_799L;

  private static final int MAX_STRING = 256;

  private Claims() {}

  /** A non-empty string claim of sensible length, or null. */
  static String string(Map<String, Object> claims, String name) {
    return claims.get(name) instanceof String s && !s.isEmpty() && s.length() <= MAX_STRING
        ? s
        : null;
  }

  /** A NumericDate claim in whole seconds, or {@link #ABSENT}. */
  static long seconds(Map<String, Object> claims, String name) {
    return claims.get(name) instanceof Long l && l >= 0 && l <= MAX_SECONDS ? l : ABSENT;
  }

  /** A whole-number claim from {@code min} to {@code max}, or {@link #ABSENT}. */
  static long whole(Map<String, Object> claims, String name, long min, long max) {
    return claims.get(name) instanceof Long l && l >= min && l <= max ? l : ABSENT;
  }

  /** A non-empty array of at most {@code max} non-empty strings, or null. */
  static List<String> strings(Map<String, Object> claims, String name, int max) {
    if (!(claims.get(name) instanceof List<?> list) || list.isEmpty() || list.size() > max) {
      return null;
    }
    List<String> strings = new ArrayList<>(list.size());
    for (Object element : list) {
      if (!(element instanceof String s) || s.isEmpty() || s.length() > MAX_STRING) {
        return null;
      }
      strings.add(s);
    }
    return List.copyOf(strings);
  }
}
