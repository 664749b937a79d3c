package io.anteroom.gateway.status;

import io.anteroom.queue.config.RoomOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One room's own pages and wording, from its {@code templates} directory (and the older {@code
 * template} option, a waiting page alone): a file named as a page ({@code waiting.html}, {@code
 * paused.html}, {@code closed.html}, {@code unavailable.html}, {@code challenge.html}, {@code
 * limited.html}) replaces that page, and {@code messages_<language>.properties} replaces strings of
 * a built-in language or adds a language, which must then have every key. Everything is checked
 * when the gateway starts: a problem stops it, naming the room's option, the file and the line.
 *
 * @param templates the room's own templates by page
 * @param languages the room's wording by language: the built-in ones, as the room changed them, and
 *     those it adds
 * @param language the one language of the room's pages, or null to follow {@code Accept-Language}
 */
record RoomPages(
    Map<PageKind, String> templates, Map<String, PageText> languages, String language) {

  private static final Pattern MESSAGES =
      Pattern.compile("messages_([a-z]{2,3}(?:-[a-z0-9]{2,8})?)\\.properties");

  /** The built-in pages and wording, in the visitor's language. */
  static final RoomPages BUILT_IN = new RoomPages(Map.of(), PageText.builtIn(), null);

  /** The room's language, else English: the language of its operator message without one. */
  String defaultLanguage() {
    return language != null ? language : PageText.LANGUAGES.get(0);
  }

  static RoomPages of(String room, RoomOptions options) {
    String prefix = "anteroom.rooms." + room + ".";
    List<String> problems = new ArrayList<>();
    Map<String, PageText> languages = new LinkedHashMap<>(PageText.builtIn());
    Map<PageKind, String> templates = new EnumMap<>(PageKind.class);
    String directory = trimmed(options.templates());
    if (!directory.isEmpty()) {
      Path dir = Path.of(directory);
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException(
            prefix + "templates: " + directory + " is not a directory that can be read");
      }
      List<String> found = new ArrayList<>();
      readLanguages(dir, languages, found);
      for (PageKind kind : PageKind.values()) {
        Path file = dir.resolve(kind.file());
        if (Files.exists(file)) {
          templates.put(kind, template(file, kind, found));
        }
      }
      found.forEach(problem -> problems.add(prefix + "templates: " + problem));
    }
    String single = trimmed(options.template());
    if (!single.isEmpty()) {
      List<String> found = new ArrayList<>();
      if (templates.containsKey(PageKind.WAITING)) {
        found.add("set, and so is " + PageKind.WAITING.file() + " in templates; keep one");
      }
      templates.put(PageKind.WAITING, template(Path.of(single), PageKind.WAITING, found));
      found.forEach(problem -> problems.add(prefix + "template: " + problem));
    }
    String language = trimmed(options.language()).toLowerCase(Locale.ROOT);
    if (!language.isEmpty() && !languages.containsKey(language)) {
      problems.add(
          prefix
              + "language: "
              + language
              + " is not one of "
              + String.join(", ", languages.keySet()));
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    return new RoomPages(
        Map.copyOf(templates), Map.copyOf(languages), language.isEmpty() ? null : language);
  }

  private static void readLanguages(
      Path dir, Map<String, PageText> languages, List<String> problems) {
    Set<String> englishKeys = PageText.english().all().keySet();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "messages_*.properties")) {
      for (Path file : files) {
        Matcher name = MESSAGES.matcher(file.getFileName().toString());
        if (!name.matches()) {
          problems.add(file + ": not messages_<language>.properties with a language such as ja");
          continue;
        }
        String language = name.group(1);
        Map<String, String> strings;
        try (InputStream in = Files.newInputStream(file)) {
          strings = PageText.read(in);
        }
        Set<String> unknown = new TreeSet<>(strings.keySet());
        unknown.removeAll(englishKeys);
        if (!unknown.isEmpty()) {
          problems.add(file + ": unknown keys " + unknown);
        }
        PageText builtIn = PageText.builtIn().get(language);
        if (builtIn != null) {
          languages.put(language, builtIn.overlaid(strings));
          continue;
        }
        Set<String> missing = new TreeSet<>(englishKeys);
        missing.removeAll(strings.keySet());
        if (!missing.isEmpty()) {
          problems.add(
              file + ": a language the pages do not have needs every key; missing " + missing);
        }
        languages.put(language, new PageText(language, strings));
      }
    } catch (IOException e) {
      problems.add(dir + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  private static String template(Path file, PageKind kind, List<String> problems) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      problems.add("cannot read " + file + " (" + e.getMessage() + ")");
      return "";
    }
    Set<String> keys = PageText.english().all().keySet();
    problems.addAll(
        TemplateCheck.problems(
            file.toString(),
            text,
            name -> kind.placeholders().contains(name) || keys.contains(name)));
    return text;
  }

  private static String trimmed(String option) {
    return option == null ? "" : option.trim();
  }
}
