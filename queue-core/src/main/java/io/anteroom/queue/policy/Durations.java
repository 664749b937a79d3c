package io.anteroom.queue.policy;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as operators write them: a whole number and a unit ({@code 250ms 30s 5m 2h 1d}). */
public final class Durations {

  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  private Durations() {}

  /**
   * @throws IllegalArgumentException when the text has no unit or is not of the form above
   */
  public static Duration parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "must be a whole number with a unit (ms, s, m, h, d), e.g. 30s; was '" + text + "'");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  /** The shortest exact text {@link #parse} reads back as {@code duration}. */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms % 86_400_000 == 0 && ms > 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0 && ms > 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
