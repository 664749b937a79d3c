package io.anteroom.gateway.token;

import java.time.Instant;
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

  /** A finite number claim, or NaN when absent or anything else. */
  static double number(Map<String, Object> claims, String name) {
    return claims.get(name) instanceof Number n && Double.isFinite(n.doubleValue())
        ? n.doubleValue()
        : Double.NaN;
  }

  /** A whole-number claim from {@code min} to {@code max}, or {@link #ABSENT}. */
  static long whole(Map<String, Object> claims, String name, long min, long max) {
    return claims.get(name) instanceof Long l && l >= min && l <= max ? l : ABSENT;
  }

  /**
   * The {@code items} of a pass: a non-empty array of at most {@code max} objects {@code
   * {"item":…,"until":ms,"checked":ms}}, each with {@code "admitted":ms} when the line admitted the
   * visitor, or null when any is ill-formed. Passes issued before items carried their own ends list
   * bare item ids; each of those counts as ending at {@code legacyUntil} and checked at {@code
   * legacyChecked}.
   */
  static List<Entitlement> entitlements(
      Map<String, Object> claims, int max, long legacyUntil, long legacyChecked) {
    if (!(claims.get("items") instanceof List<?> list) || list.isEmpty() || list.size() > max) {
      return null;
    }
    List<Entitlement> entitlements = new ArrayList<>(list.size());
    for (Object element : list) {
      Entitlement entitlement =
          element instanceof String item
              ? entitlement(item, legacyUntil * 1000, legacyChecked * 1000, null)
              : element instanceof Map<?, ?> map
                  ? entitlement(
                      map.get("item"), map.get("until"), map.get("checked"), map.get("admitted"))
                  : null;
      if (entitlement == null) {
        return null;
      }
      entitlements.add(entitlement);
    }
    return entitlements;
  }

  /** An absent {@code admitted} is an admission not known; one that is present must be valid. */
  private static Entitlement entitlement(
      Object item, Object until, Object checked, Object admitted) {
    if (admitted != null && !(admitted instanceof Long a && a >= 0 && a <= MAX_SECONDS * 1000)) {
      return null;
    }
    if (item instanceof String s
        && !s.isEmpty()
        && s.length() <= MAX_STRING
        && until instanceof Long u
        && checked instanceof Long c
        && u >= 0
        && c >= 0
        && u <= MAX_SECONDS * 1000
        && c <= MAX_SECONDS * 1000) {
      return new Entitlement(
          s,
          Instant.ofEpochMilli(u),
          Instant.ofEpochMilli(c),
          admitted == null ? null : Instant.ofEpochMilli((Long) admitted));
    }
    return null;
  }
}
