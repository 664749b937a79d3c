package io.anteroom.gateway.status;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a page template before it is used: every {@code {{placeholder}}} must be one the page
 * fills, and the markup must be balanced (each element closed, in order; void elements such as
 * {@code <meta>} need no end tag, the text of {@code <script>} and {@code <style>} is not markup).
 * Each problem names the file and line.
 */
final class TemplateCheck {

  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z][a-zA-Z0-9.]*)}}");

  private static final Set<String> VOID =
      Set.of(
          "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
          "track", "wbr");
  private static final Set<String> RAW_TEXT = Set.of("script", "style", "textarea", "title");
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9-]*");

  private TemplateCheck() {}

  /**
   * The problems of {@code text}, each {@code "<source>:<line>: <problem>"}; empty when it can be
   * used.
   *
   * @param source the file, as the messages name it
   * @param known whether a placeholder name is one the page fills
   */
  static List<String> problems(String source, String text, Predicate<String> known) {
    List<String> problems = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      if (!known.test(m.group(1))) {
        problems.add(
            source + ":" + line(text, m.start()) + ": unknown placeholder {{" + m.group(1) + "}}");
      }
    }
    markup(source, text, problems);
    return problems;
  }

  private record Open(String name, int line) {}

  private static void markup(String source, String text, List<String> problems) {
    Deque<Open> open = new ArrayDeque<>();
    int i = 0;
    while ((i = text.indexOf('<', i)) >= 0) {
      if (text.startsWith("<!--", i)) {
        int end = text.indexOf("-->", i + 4);
        if (end < 0) {
          problems.add(source + ":" + line(text, i) + ": comment is never closed");
          return;
        }
        i = end + 3;
        continue;
      }
      if (text.startsWith("<!", i)) {
        i = Math.max(i + 2, text.indexOf('>', i) + 1);
        continue;
      }
      boolean closing = text.startsWith("</", i);
      Matcher name = NAME.matcher(text).region(i + (closing ? 2 : 1), text.length());
      if (!name.lookingAt()) {
        i++;
        continue;
      }
      String tag = name.group().toLowerCase(Locale.ROOT);
      int end = tagEnd(text, name.end());
      if (end < 0) {
        problems.add(source + ":" + line(text, i) + ": <" + tag + " is never ended with >");
        return;
      }
      int line = line(text, i);
      if (closing) {
        if (open.isEmpty()) {
          problems.add(source + ":" + line + ": </" + tag + "> closes nothing");
        } else if (!open.peek().name().equals(tag)) {
          Open top = open.peek();
          problems.add(
              source
                  + ":"
                  + line
                  + ": </"
                  + tag
                  + "> where <"
                  + top.name()
                  + "> of line "
                  + top.line()
                  + " is still open");
          return;
        } else {
          open.pop();
        }
        i = end + 1;
        continue;
      }
      boolean selfClosed = text.charAt(end - 1) == '/';
      if (VOID.contains(tag) || selfClosed) {
        i = end + 1;
        continue;
      }
      open.push(new Open(tag, line));
      i = end + 1;
      if (RAW_TEXT.contains(tag)) {
        int close = text.toLowerCase(Locale.ROOT).indexOf("</" + tag, i);
        if (close < 0) {
          problems.add(source + ":" + line + ": <" + tag + "> is never closed");
          return;
        }
        i = close;
      }
    }
    for (Open left : open) {
      problems.add(source + ":" + left.line() + ": <" + left.name() + "> is never closed");
    }
  }

  /** The index of the {@code >} ending a tag whose attributes start at {@code from}; -1 if none. */
  private static int tagEnd(String text, int from) {
    char quote = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '>') {
        return i;
      } else if (c == '<') {
        return -1;
      }
    }
    return -1;
  }

  private static int line(String text, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
