package io.anteroom.gateway.status;

/**
 * A wait range in words, as the waiting page shows it ("about 3–5 minutes", "less than a minute"),
 * in the page's language. The page's script words the ranges of later polls the same way, from the
 * same strings.
 */
public final class WaitWording {

  private WaitWording() {}

  /** The range in English. */
  public static String describe(long minSeconds, long maxSeconds) {
    return describe(minSeconds, maxSeconds, PageText.english());
  }

  /** The range in {@code text}'s language; "not known yet" when there is no estimate (both 0). */
  public static String describe(long minSeconds, long maxSeconds, PageText text) {
    if (maxSeconds <= 0) {
      return text.get("eta.unknown");
    }
    if (maxSeconds < 60) {
      return text.get("eta.lessThanMinute");
    }
    long low = minSeconds / 60;
    long high = (maxSeconds + 59) / 60;
    if (low >= 120) {
      return span(text, low / 60, (high + 59) / 60, "eta.oneHour", "eta.hours", "eta.hourRange");
    }
    if (low == 0) {
      return high == 1 ? text.get("eta.upToOneMinute") : fill(text.get("eta.upToMinutes"), high);
    }
    return span(text, low, high, "eta.oneMinute", "eta.minutes", "eta.minuteRange");
  }

  /**
   * How long a place is kept for a visitor who stops asking, in words: "your place is kept for 5
   * minutes"; whole minutes from a minute on (rounded down, as the line keeps it no longer), else
   * seconds. Empty for 0, when the view does not say.
   */
  public static String kept(long seconds, PageText text) {
    if (seconds <= 0) {
      return "";
    }
    String span =
        seconds < 60
            ? fill(text.get("kept.seconds"), seconds)
            : seconds < 120
                ? text.get("kept.oneMinute")
                : fill(text.get("kept.minutes"), seconds / 60);
    return text.get("waiting.kept").replace("{0}", span);
  }

  private static String span(
      PageText text, long low, long high, String one, String many, String range) {
    if (low == high) {
      return low == 1 ? text.get(one) : fill(text.get(many), low);
    }
    return fill(text.get(range), low).replace("{1}", Long.toString(high));
  }

  private static String fill(String pattern, long value) {
    return pattern.replace("{0}", Long.toString(value));
  }
}
