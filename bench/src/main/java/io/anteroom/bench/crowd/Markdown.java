package io.anteroom.bench.crowd;

import java.util.Locale;

/** A Markdown text being written, and the number formats the results use. */
final class Markdown {

  private final StringBuilder out = new StringBuilder();

  void line(String text) {
    out.append(text).append('\n');
  }

  @Override
  public String toString() {
    return out.toString();
  }

  static String f(String format, double value) {
    return String.format(Locale.ROOT, format, value);
  }

  static String n(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  static String mb(long bytes) {
    return f("%.1f", bytes / 1e6);
  }

  static String signedMb(long bytes) {
    return f("%+.1f", bytes / 1e6);
  }
}
