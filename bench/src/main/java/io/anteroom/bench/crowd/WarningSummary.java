package io.anteroom.bench.crowd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway's WARN and ERROR lines, told apart by logger and message only: timestamps, thread
 * names and the throttled "(N similar warnings suppressed)" tails are dropped, so each kind of
 * warning shows once, with how many lines it took.
 */
final class WarningSummary {

  private WarningSummary() {}

  /** Distinct warnings, first seen first, each with its count of lines. */
  static Map<String, Integer> of(List<String> lines) {
    Map<String, Integer> distinct = new LinkedHashMap<>();
    for (String line : lines) {
      distinct.merge(message(line), 1, Integer::sum);
    }
    return distinct;
  }

  private static String message(String line) {
    int separator = line.indexOf(" : ");
    String logger = separator < 0 ? "" : lastWord(line.substring(0, separator));
    String text = separator < 0 ? line : line.substring(separator + 3);
    text = text.replaceAll("\\s*\\(\\d+ similar warnings suppressed\\)", "");
    String level = line.contains(" ERROR ") ? "ERROR" : "WARN";
    return level + " " + logger + ": " + text.strip();
  }

  private static String lastWord(String text) {
    String[] words = text.strip().split("\\s+");
    return words[words.length - 1];
  }
}
