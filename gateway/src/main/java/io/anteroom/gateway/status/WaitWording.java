package io.anteroom.gateway.status;

/**
 * A wait range in words, as the waiting page shows it ("about 3–5 minutes", "less than a minute").
 * The page's script words the ranges of later polls the same way.
 */
public final class WaitWording {

  private WaitWording() {}

  /** The range in words; "not known yet" when there is no estimate (both ends 0). */
  public static String describe(long minSeconds, long maxSeconds) {
    if (maxSeconds <= 0) {
      return "not known yet";
    }
    if (maxSeconds < 60) {
      return "less than a minute";
    }
    long low = minSeconds / 60;
    long high = (maxSeconds + 59) / 60;
    if (low >= 120) {
      return span(low / 60, (high + 59) / 60, "hour");
    }
    if (low == 0) {
      return "up to " + high + (high == 1 ? " minute" : " minutes");
    }
    return span(low, high, "minute");
  }

  private static String span(long low, long high, String unit) {
    if (low == high) {
      return "about " + low + " " + unit + (low == 1 ? "" : "s");
    }
    return "about " + low + "\u2013" + high + " " + unit + "s";
  }
}
