package io.anteroom.bench;

import java.util.Locale;

/** A Markdown text being written, and the number formats the results files use. */
public final class Markdown {

  private final StringBuilder out = new StringBuilder();

  /** Appends a line, formatted with {@code args} when there are any. */
  public Markdown line(String text, Object... args) {
    out.append(args.length == 0 ? text : String.format(Locale.ROOT, text, args)).append('\n');
    return this;
  }

  /** Appends a table row of these cells. */
  public Markdown row(Object... cells) {
    StringBuilder row = new StringBuilder("|");
    for (Object cell : cells) {
      row.append(' ').append(cell).append(" |");
    }
    return line(row.toString());
  }

  @Override
  public String toString() {
    return out.toString();
  }

  public static String f(String format, double value) {
    return String.format(Locale.ROOT, format, value);
  }

  public static String n(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }
}
