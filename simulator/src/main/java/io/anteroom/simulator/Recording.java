package io.anteroom.simulator;

import io.anteroom.queue.QueueId;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a room's recorded arrivals, as the admin API exports them ({@code GET
 * /admin/api/rooms/{room}/arrivals}):
 *
 * <pre>
 * # anteroom arrivals room=shop sample=0.25 from=... to=...
 * at_ms,item
 * 1764860400123,42
 * </pre>
 *
 * Lines starting with {@code #} and blank lines are skipped; the {@code at_ms,item} header is
 * required before the rows. A recording sampled at a fraction (the {@code sample=} of its first
 * comment) stands for more people than it holds: each row is replayed {@code round(1 / sample)}
 * times, a millisecond apart, so the simulated crowd has the recorded room's size.
 */
public final class Recording {

  static final String HEADER = "at_ms,item";
  private static final Pattern SAMPLE = Pattern.compile("\\bsample=([0-9.eE+-]+)");
  private static final int MAX_ROWS = 50_000_000;

  private Recording() {}

  /**
   * @throws IllegalArgumentException naming the file and the line of the first problem
   */
  public static Arrivals read(Path file) throws IOException {
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(file.toString(), reader);
    }
  }

  static Arrivals read(String name, BufferedReader reader) throws IOException {
    double sample = 1;
    boolean header = false;
    long first = Long.MIN_VALUE;
    long previous = Long.MIN_VALUE;
    long[] at = new long[1024];
    int[] item = new int[1024];
    List<String> items = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    int n = 0;
    int number = 0;
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      number++;
      String text = line.strip();
      if (text.isEmpty()) {
        continue;
      }
      if (text.startsWith("#")) {
        Matcher m = SAMPLE.matcher(text);
        if (!header && m.find()) {
          sample = sample(name, number, m.group(1));
        }
        continue;
      }
      if (!header) {
        if (!text.equals(HEADER)) {
          throw bad(name, number, "expected the header " + HEADER + ", found " + clip(text));
        }
        header = true;
        continue;
      }
      String[] cells = text.split(",", -1);
      if (cells.length != 2) {
        throw bad(name, number, "expected at_ms,item, found " + clip(text));
      }
      long time;
      try {
        time = Long.parseLong(cells[0].strip());
      } catch (NumberFormatException e) {
        throw bad(name, number, "at_ms is not a whole number of milliseconds: " + clip(cells[0]));
      }
      if (time < 0) {
        throw bad(name, number, "at_ms cannot be negative: " + time);
      }
      if (time < previous) {
        throw bad(name, number, "rows must be in order of time; " + time + " follows " + previous);
      }
      String id = cells[1].strip();
      if (!QueueId.isItem(id)) {
        throw bad(name, number, "not an item id as keys spell it: " + clip(id));
      }
      if (n == MAX_ROWS) {
        throw bad(name, number, "more than " + MAX_ROWS + " rows");
      }
      if (first == Long.MIN_VALUE) {
        first = time;
      }
      previous = time;
      if (n == at.length) {
        at = Arrays.copyOf(at, n * 2);
        item = Arrays.copyOf(item, n * 2);
      }
      at[n] = time - first;
      item[n] = index.computeIfAbsent(id, k -> addItem(items, k));
      n++;
    }
    if (!header) {
      throw new IllegalArgumentException(name + ": no " + HEADER + " header; not a recording");
    }
    return scaled(
        new Arrivals(
            Arrays.copyOf(at, n),
            Arrays.copyOf(item, n),
            List.copyOf(items),
            "recording " + name + (sample < 1 ? " (sample " + sample + ")" : "")),
        sample);
  }

  private static int addItem(List<String> items, String id) {
    items.add(id);
    return items.size() - 1;
  }

  /** Each row {@code round(1 / sample)} times, a millisecond apart. */
  private static Arrivals scaled(Arrivals recorded, double sample) {
    int copies = (int) Math.round(1 / sample);
    if (copies <= 1) {
      return recorded;
    }
    int n = recorded.size();
    if ((long) n * copies > MAX_ROWS) {
      throw new IllegalArgumentException(
          recorded.source() + ": " + n + " rows at sample " + sample + " stand for too many");
    }
    List<Arrivals> copiesOf = new ArrayList<>(copies);
    for (int c = 0; c < copies; c++) {
      long[] at = recorded.at().clone();
      for (int i = 0; i < n; i++) {
        at[i] += c;
      }
      copiesOf.add(new Arrivals(at, recorded.item(), recorded.items(), recorded.source()));
    }
    Arrivals all = Arrivals.merge(copiesOf);
    return new Arrivals(all.at(), all.item(), all.items(), recorded.source());
  }

  private static double sample(String name, int number, String text) {
    try {
      double sample = Double.parseDouble(text);
      if (sample > 0 && sample <= 1) {
        return sample;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw bad(name, number, "sample must be above 0 and at most 1: " + clip(text));
  }

  private static String clip(String text) {
    return text.length() > 60 ? text.substring(0, 60) + "…" : text;
  }

  private static IllegalArgumentException bad(String name, int number, String why) {
    return new IllegalArgumentException(name + " line " + number + ": " + why);
  }
}
