package io.anteroom.simulator;

import java.time.Duration;
import java.util.SplittableRandom;
import org.springframework.boot.convert.DurationStyle;

/**
 * How long something lasts for one visitor, drawn per visitor: a fixed duration ({@code 5m}), an
 * exponential one with a mean ({@code exp:5m}), a uniform one between two ({@code uniform:2m-8m}),
 * or {@code never} (it does not end). Durations are written as in the configuration ({@code 90s},
 * {@code 5m}, {@code 1h}).
 */
public record Spread(Kind kind, long lowMillis, long highMillis) {

  /** The shapes a spread can take. */
  public enum Kind {
    FIXED,
    EXPONENTIAL,
    UNIFORM,
    NEVER
  }

  /** Drawn for a visitor whose wait or session does not end on its own. */
  public static final long FOREVER = Long.MAX_VALUE / 4;

  public static final Spread NEVER = new Spread(Kind.NEVER, FOREVER, FOREVER);

  /**
   * Reads a spread.
   *
   * @param name what it is, for messages ({@code --session})
   * @throws IllegalArgumentException naming {@code name} and the text
   */
  public static Spread parse(String name, String text) {
    String t = text.strip();
    try {
      if (t.equals("never")) {
        return NEVER;
      }
      if (t.startsWith("exp:")) {
        return new Spread(Kind.EXPONENTIAL, positive(t.substring(4)), 0);
      }
      if (t.startsWith("uniform:")) {
        String[] range = t.substring(8).split("-", 2);
        if (range.length != 2) {
          throw new IllegalArgumentException("a range is written low-high");
        }
        long low = positive(range[0]);
        long high = positive(range[1]);
        if (high < low) {
          throw new IllegalArgumentException("the range ends before it starts");
        }
        return new Spread(Kind.UNIFORM, low, high);
      }
      return new Spread(Kind.FIXED, positive(t), 0);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          name + " " + text + ": " + e.getMessage() + " (write 5m, exp:5m, uniform:2m-8m or never)",
          e);
    }
  }

  private static long positive(String text) {
    Duration duration = DurationStyle.detectAndParse(text.strip());
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("must be above zero");
    }
    return duration.toMillis();
  }

  /** One visitor's draw, in milliseconds; {@link #FOREVER} for {@code never}. */
  public long draw(SplittableRandom random) {
    return switch (kind) {
      case FIXED -> lowMillis;
      case EXPONENTIAL -> Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * lowMillis));
      case UNIFORM -> lowMillis + random.nextLong(highMillis - lowMillis + 1);
      case NEVER -> FOREVER;
    };
  }

  @Override
  public String toString() {
    return switch (kind) {
      case FIXED -> Duration.ofMillis(lowMillis).toString();
      case EXPONENTIAL -> "exp:" + Duration.ofMillis(lowMillis);
      case UNIFORM ->
          "uniform:" + Duration.ofMillis(lowMillis) + "-" + Duration.ofMillis(highMillis);
      case NEVER -> "never";
    };
  }
}
