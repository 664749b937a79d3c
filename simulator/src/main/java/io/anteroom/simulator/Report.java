package io.anteroom.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The terminal report of a simulation: the runs side by side, then each run over time. */
public final class Report {

  /** Rows of a run's table over time. */
  static final int ROWS_OVER_TIME = 12;

  private Report() {}

  /** The summary table, one column per run. */
  public static String summary(List<Outcome> runs) {
    List<String[]> rows = new ArrayList<>();
    rows.add(row("", runs, Outcome::label));
    rows.add(row("wait p50", runs, o -> duration(o.waitSeconds(50))));
    rows.add(row("wait p90", runs, o -> duration(o.waitSeconds(90))));
    rows.add(row("wait p99", runs, o -> duration(o.waitSeconds(99))));
    rows.add(row("wait max", runs, o -> duration(o.waitSeconds(100))));
    rows.add(row("longest line", runs, o -> count(o.longestLine())));
    rows.add(row("peak active", runs, o -> count(o.peakActive())));
    rows.add(row("arrived", runs, o -> count(o.arrived())));
    rows.add(row("admitted", runs, o -> count(o.admitted())));
    rows.add(row("  at once", runs, o -> count(o.atOnce())));
    rows.add(row("gave up", runs, o -> count(o.abandoned())));
    rows.add(row("line empty after", runs, o -> duration(o.emptiedAfter() / 1000.0)));
    return table(rows);
  }

  /** One run's line over time, in {@link #ROWS_OVER_TIME} rows or fewer. */
  public static String overTime(Outcome run) {
    Timeline timeline = run.timeline();
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"time", "arrived", "waiting", "active", "admitted", "admitted/s"});
    int size = timeline.size();
    int step = Math.max(1, (size + ROWS_OVER_TIME - 1) / ROWS_OVER_TIME);
    int previous = -1;
    for (int i = 0; i < size; i += step) {
      rows.add(overTimeRow(timeline, i, previous));
      previous = i;
    }
    if (previous != size - 1 && size > 0) {
      rows.add(overTimeRow(timeline, size - 1, previous));
    }
    return run.label() + "\n" + table(rows);
  }

  private static String[] overTimeRow(Timeline timeline, int i, int previous) {
    String rate = "";
    if (previous >= 0) {
      long seconds = timeline.second(i) - timeline.second(previous);
      rate =
          seconds > 0
              ? String.format(
                  Locale.ROOT,
                  "%.1f",
                  (timeline.admitted(i) - timeline.admitted(previous)) / (double) seconds)
              : "";
    }
    return new String[] {
      duration(timeline.second(i)),
      count(timeline.arrived(i)),
      count(timeline.waiting(i)),
      count(timeline.active(i)),
      count(timeline.admitted(i)),
      rate
    };
  }

  private static String[] row(String name, List<Outcome> runs, Function<Outcome, String> cell) {
    String[] row = new String[runs.size() + 1];
    row[0] = name;
    for (int i = 0; i < runs.size(); i++) {
      row[i + 1] = cell.apply(runs.get(i));
    }
    return row;
  }

  /** Columns padded to their widest cell: the first to the left, the others to the right. */
  static String table(List<String[]> rows) {
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        String cell = row[c];
        String pad = " ".repeat(width[c] - cell.length());
        out.append(c == 0 ? cell + pad : "  " + pad + cell);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** Seconds as {@code 45.2s}, {@code 12m 05s} or {@code 2h 03m}. */
  static String duration(double seconds) {
    if (seconds < 60) {
      return String.format(Locale.ROOT, "%.1fs", seconds);
    }
    long whole = Math.round(seconds);
    if (whole < 3600) {
      return String.format(Locale.ROOT, "%dm %02ds", whole / 60, whole % 60);
    }
    return String.format(Locale.ROOT, "%dh %02dm", whole / 3600, whole % 3600 / 60);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
