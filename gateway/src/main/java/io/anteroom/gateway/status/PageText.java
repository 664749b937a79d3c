package io.anteroom.gateway.status;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The visible wording of the visitor pages in one language, from {@code
 * messages/waiting_<language>.properties} (UTF-8). Every language has every key of English: a
 * bundle that lacks one fails at start-up.
 */
public final class PageText {

  /** The languages the pages are written in; the first is the default. */
  public static final List<String> LANGUAGES = List.of("en", "ko");

  private static final Map<String, PageText> ALL = load();

  private final String language;
  private final Map<String, String> strings;

  PageText(String language, Map<String, String> strings) {
    this.language = language;
    this.strings = Map.copyOf(strings);
  }

  /** The wording in {@code language}, one of {@link #LANGUAGES}. */
  public static PageText of(String language) {
    PageText text = ALL.get(language);
    if (text == null) {
      throw new IllegalArgumentException(
          "unknown language " + language + "; one of " + String.join(", ", LANGUAGES));
    }
    return text;
  }

  /** The default language's wording. */
  public static PageText english() {
    return ALL.get(LANGUAGES.get(0));
  }

  public String language() {
    return language;
  }

  /** One string; fails on a key no bundle has. */
  public String get(String key) {
    String value = strings.get(key);
    if (value == null) {
      throw new IllegalArgumentException("no page text " + key);
    }
    return value;
  }

  /** Every key with its string. */
  public Map<String, String> all() {
    return strings;
  }

  /** The built-in languages' wording, by language. */
  static Map<String, PageText> builtIn() {
    return ALL;
  }

  /** This wording with some strings replaced. */
  PageText overlaid(Map<String, String> replacements) {
    Map<String, String> merged = new TreeMap<>(strings);
    merged.putAll(replacements);
    return new PageText(language, merged);
  }

  private static Map<String, PageText> load() {
    Map<String, PageText> all = new TreeMap<>();
    Map<String, String> english = null;
    for (String language : LANGUAGES) {
      Map<String, String> strings = read("/messages/waiting_" + language + ".properties");
      if (english == null) {
        english = strings;
      } else if (!strings.keySet().equals(english.keySet())) {
        throw new IllegalStateException(
            "messages/waiting_" + language + ".properties must have the keys of English");
      }
      all.put(language, new PageText(language, strings));
    }
    return all;
  }

  private static Map<String, String> read(String path) {
    try (InputStream in = PageText.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing page text " + path);
      }
      return read(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Strings from a properties stream in UTF-8. */
  static Map<String, String> read(InputStream in) throws IOException {
    Properties properties = new Properties();
    properties.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    Map<String, String> strings = new TreeMap<>();
    properties.forEach((key, value) -> strings.put(key.toString(), value.toString()));
    return strings;
  }

  /**
   * The language for a request: the room's fixed language when set, otherwise the best supported
   * match of {@code Accept-Language} (q-values honoured), otherwise English.
   */
  public static PageText choose(String roomLanguage, String acceptLanguage) {
    return choose(ALL, roomLanguage, acceptLanguage);
  }

  /**
   * As {@link #choose(String, String)} among {@code available} (by language), which holds English.
   */
  static PageText choose(
      Map<String, PageText> available, String roomLanguage, String acceptLanguage) {
    if (roomLanguage != null) {
      return available.get(roomLanguage);
    }
    if (acceptLanguage != null && !acceptLanguage.isBlank()) {
      try {
        List<Locale.LanguageRange> ranges = Locale.LanguageRange.parse(acceptLanguage);
        for (Locale.LanguageRange range : ranges) {
          if (range.getWeight() <= 0) {
            continue;
          }
          String primary = range.getRange().split("-", 2)[0].toLowerCase(Locale.ROOT);
          if (available.containsKey(primary)) {
            return available.get(primary);
          }
        }
      } catch (IllegalArgumentException e) {
        return available.get(LANGUAGES.get(0));
      }
    }
    return available.get(LANGUAGES.get(0));
  }
}
