package io.anteroom.simulator;

import io.anteroom.queue.QueueId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.springframework.boot.convert.DurationStyle;

/**
 * Who arrives when: times in milliseconds from the start of the run, in order, each with the item
 * whose line they join. Made from a profile ({@link #profile}) or read from a recording ({@link
 * Recording}).
 *
 * @param at arrival times, ascending, from 0
 * @param item each arrival's index into {@code items}
 * @param items the lines' item ids
 * @param source how they were made, for the report
 */
public record Arrivals(long[] at, int[] item, List<String> items, String source) {

  private static final List<String> ROOM_WIDE = List.of(QueueId.ROOM_WIDE);

  /** How many arrive. */
  public int size() {
    return at.length;
  }

  /** When the last one arrives, in milliseconds from the start; 0 for none. */
  public long span() {
    return at.length == 0 ? 0 : at[at.length - 1];
  }

  /**
   * Arrivals to the room-wide line from a profile: {@code crowd:N/T} (N people, each at a uniformly
   * random moment within T), {@code poisson:R/T} (a Poisson stream of R a second for T), {@code
   * ramp:A-B/T} (a Poisson stream whose rate moves evenly from A to B a second over T).
   *
   * @throws IllegalArgumentException naming the profile and what is wrong with it
   */
  public static Arrivals profile(String text, SplittableRandom random) {
    String t = text.strip();
    int colon = t.indexOf(':');
    int slash = t.lastIndexOf('/');
    if (colon < 0 || slash < colon) {
      throw bad(text, "write crowd:N/T, poisson:R/T or ramp:A-B/T");
    }
    String kind = t.substring(0, colon);
    String amount = t.substring(colon + 1, slash);
    long span = span(text, t.substring(slash + 1));
    long[] at =
        switch (kind) {
          case "crowd" -> crowd(whole(text, amount), span, random);
          case "poisson" -> ramp(rate(text, amount), rate(text, amount), span, random);
          case "ramp" -> {
            String[] ends = amount.split("-", 2);
            if (ends.length != 2) {
              throw bad(text, "a ramp is written ramp:A-B/T, from A to B a second");
            }
            yield ramp(rate(text, ends[0]), rate(text, ends[1]), span, random);
          }
          default -> throw bad(text, "unknown profile " + kind + "; write crowd, poisson or ramp");
        };
    return new Arrivals(at, new int[at.length], ROOM_WIDE, t);
  }

  /** Several sets of arrivals as one, in order of time. */
  public static Arrivals merge(List<Arrivals> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    List<String> items = new ArrayList<>();
    int total = parts.stream().mapToInt(Arrivals::size).sum();
    long[] keyed = new long[total];
    long[] times = new long[total];
    int[] lines = new int[total];
    int n = 0;
    for (Arrivals part : parts) {
      for (int i = 0; i < part.size(); i++) {
        String id = part.items().get(part.item()[i]);
        int index = items.indexOf(id);
        if (index < 0) {
          items.add(id);
          index = items.size() - 1;
        }
        times[n] = part.at()[i];
        lines[n] = index;
        n++;
      }
    }
    // Sorts indices by time, stable for equal times.
    Integer[] order = new Integer[total];
    for (int i = 0; i < total; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
    int[] item = new int[total];
    for (int i = 0; i < total; i++) {
      keyed[i] = times[order[i]];
      item[i] = lines[order[i]];
    }
    return new Arrivals(
        keyed,
        item,
        List.copyOf(items),
        String.join(" + ", parts.stream().map(Arrivals::source).toList()));
  }

  private static long[] crowd(long people, long span, SplittableRandom random) {
    if (people > 50_000_000) {
      throw new IllegalArgumentException("at most 50,000,000 people a profile");
    }
    long[] at = new long[(int) people];
    for (int i = 0; i < at.length; i++) {
      at[i] = random.nextLong(span);
    }
    Arrays.sort(at);
    return at;
  }

  /**
   * A Poisson stream whose rate moves linearly from {@code from} to {@code to} a second: each next
   * arrival is one exponential step of the expected count Λ(t) = a·t + (b − a)·t²/2T further.
   */
  private static long[] ramp(double from, double to, long span, SplittableRandom random) {
    double seconds = span / 1000.0;
    double expected = (from + to) / 2 * seconds;
    if (expected > 50_000_000) {
      throw new IllegalArgumentException("at most 50,000,000 people a profile");
    }
    double slope = (to - from) / seconds;
    long[] at = new long[(int) Math.max(16, expected * 1.1 + 100)];
    int n = 0;
    double count = 0;
    while (true) {
      count += -Math.log(1 - random.nextDouble());
      double t = timeOf(count, from, slope);
      if (!(t < seconds)) {
        break;
      }
      if (n == at.length) {
        at = Arrays.copyOf(at, at.length * 2);
      }
      at[n++] = (long) (t * 1000);
    }
    return Arrays.copyOf(at, n);
  }

  /** The t at which a·t + s·t²/2 reaches {@code count}; infinite when it never does. */
  private static double timeOf(double count, double a, double s) {
    if (Math.abs(s) < 1e-12) {
      return a > 0 ? count / a : Double.POSITIVE_INFINITY;
    }
    double discriminant = a * a + 2 * s * count;
    if (discriminant < 0) {
      return Double.POSITIVE_INFINITY;
    }
    return (-a + Math.sqrt(discriminant)) / s;
  }

  private static long span(String text, String span) {
    try {
      Duration duration = DurationStyle.detectAndParse(span.strip());
      if (duration.isNegative() || duration.isZero()) {
        throw bad(text, "the time T must be above zero");
      }
      return duration.toMillis();
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith("--arrivals")
          ? e
          : bad(text, "T is a duration: 60s, 10m, 1h");
    }
  }

  private static long whole(String text, String amount) {
    try {
      long n = Long.parseLong(amount.replace("_", "").strip());
      if (n < 0) {
        throw bad(text, "the number of people cannot be negative");
      }
      return n;
    } catch (NumberFormatException e) {
      throw bad(text, "N is a whole number of people");
    }
  }

  private static double rate(String text, String amount) {
    try {
      double rate = Double.parseDouble(amount.strip());
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw bad(text, "a rate is a number of people a second, zero or more");
      }
      return rate;
    } catch (NumberFormatException e) {
      throw bad(text, "a rate is a number of people a second");
    }
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("--arrivals " + text + ": " + why);
  }
}
