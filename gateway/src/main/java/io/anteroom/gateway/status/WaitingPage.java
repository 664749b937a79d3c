package io.anteroom.gateway.status;

import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.config.RoomOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The visitor pages: waiting ({@code templates/waiting.html}, or a room's own {@code template}),
 * closed, unavailable, proof of work and limited, filled in with named {@code {{placeholders}}}:
 * the values of the moment and every key of the page text ({@link PageText}) in the chosen
 * language. Every value is HTML-escaped except {@code {{style}}}, the one shared stylesheet ({@code
 * templates/page.css}) inlined into each page; pages load nothing from elsewhere.
 */
public final class WaitingPage {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z][a-zA-Z0-9.]*)}}");

  /** The placeholders of the waiting page besides the page text. */
  public static final Set<String> WAITING_PLACEHOLDERS =
      Set.of(
          "lang",
          "style",
          "room",
          "position",
          "waiting",
          "eta",
          "etaSeconds",
          "pollAfterSeconds",
          "requeuedHidden",
          "pausedHidden",
          "closedHidden",
          "state",
          "preQueueHidden",
          "startsInSeconds",
          "message",
          "messageHidden");

  private final String style;
  private final String template;
  private final String closedTemplate;
  private final String unavailableTemplate;
  private final String challengeTemplate;
  private final String limitedTemplate;
  private final Map<String, String> languages;
  private final Map<String, String> templates;

  /** The built-in pages for every room, in the language each request asks for. */
  public WaitingPage() {
    this(Map.of(), Map.of());
  }

  /**
   * @param languages rooms whose pages are always in one language, by room
   * @param templates rooms with their own waiting page, the template text by room
   */
  WaitingPage(Map<String, String> languages, Map<String, String> templates) {
    this.style = read("/templates/page.css");
    this.template = read("/templates/waiting.html");
    this.closedTemplate = read("/templates/closed.html");
    this.unavailableTemplate = read("/templates/unavailable.html");
    this.challengeTemplate = read("/templates/challenge.html");
    this.limitedTemplate = read("/templates/limited.html");
    this.languages = Map.copyOf(languages);
    this.templates = Map.copyOf(templates);
  }

  /**
   * The pages with each room's {@code language} and {@code template} options; a language other than
   * those of {@link PageText#LANGUAGES}, a template that cannot be read or one with an unknown
   * placeholder fails with a message naming the room.
   */
  public static WaitingPage of(AnteroomProperties anteroom) {
    Map<String, String> languages = new LinkedHashMap<>();
    Map<String, String> templates = new LinkedHashMap<>();
    for (Map.Entry<String, RoomOptions> room : anteroom.roomOptions().entrySet()) {
      String language = trimmed(room.getValue().language()).toLowerCase(Locale.ROOT);
      if (!language.isEmpty()) {
        if (!PageText.LANGUAGES.contains(language)) {
          throw new IllegalArgumentException(
              "anteroom.rooms."
                  + room.getKey()
                  + ".language: "
                  + language
                  + " is not one of "
                  + String.join(", ", PageText.LANGUAGES));
        }
        languages.put(room.getKey(), language);
      }
      String path = trimmed(room.getValue().template());
      if (!path.isEmpty()) {
        templates.put(room.getKey(), customTemplate(room.getKey(), path));
      }
    }
    return new WaitingPage(languages, templates);
  }

  private static String trimmed(String option) {
    return option == null ? "" : option.trim();
  }

  private static String customTemplate(String room, String path) {
    String source = "anteroom.rooms." + room + ".template";
    String text;
    try {
      text = Files.readString(Path.of(path), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          source + ": cannot read " + path + " (" + e.getMessage() + ")", e);
    }
    Set<String> unknown = new TreeSet<>();
    Matcher m = PLACEHOLDER.matcher(text);
    while (m.find()) {
      String name = m.group(1);
      if (!WAITING_PLACEHOLDERS.contains(name) && !PageText.english().all().containsKey(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          source
              + ": "
              + path
              + " has unknown placeholders "
              + unknown
              + "; known are "
              + new TreeSet<>(WAITING_PLACEHOLDERS)
              + " and the page text keys");
    }
    return text;
  }

  /** The wording for a request to {@code room}: the room's language, else Accept-Language. */
  public PageText text(String room, String acceptLanguage) {
    return PageText.choose(languages.get(room), acceptLanguage);
  }

  /** The page that solves a proof-of-work challenge and comes back with the answer. */
  public String renderChallenge(String room, String challenge, int difficulty, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("challenge", challenge);
    values.put("difficulty", Integer.toString(difficulty));
    values.put("cookie", AnteroomCookies.proofName(room));
    return fill(challengeTemplate, values, text);
  }

  public String renderChallenge(String room, String challenge, int difficulty) {
    return renderChallenge(room, challenge, difficulty, text(room, null));
  }

  /**
   * The page of a room whose line cannot be reached now; it loads its URL again after {@code
   * retryAfterSeconds}.
   */
  public String renderUnavailable(String room, long retryAfterSeconds, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("retryAfterSeconds", Long.toString(retryAfterSeconds));
    return fill(unavailableTemplate, values, text);
  }

  public String renderUnavailable(String room, long retryAfterSeconds) {
    return renderUnavailable(room, retryAfterSeconds, text(room, null));
  }

  /** The page of a closed room or queue, with the room's operator message when there is one. */
  public String renderClosed(String room, String message, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    putMessage(values, message);
    return fill(closedTemplate, values, text);
  }

  public String renderClosed(String room) {
    return renderClosed(room, null, text(room, null));
  }

  /** The page of a request refused a new place by a limit. */
  String renderLimited(
      String room, String reason, String reasonKey, long retryAfterSeconds, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("reason", reason);
    values.put("reasonText", text.get(reasonKey));
    values.put("retryAfterSeconds", Long.toString(retryAfterSeconds));
    return fill(limitedTemplate, values, text);
  }

  /**
   * @param room the room, for the status endpoint
   * @param view the visitor's place
   * @param message the room's operator message, or null
   */
  public String render(String room, WaitingView view, String message, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("position", Long.toString(view.position()));
    values.put("waiting", Long.toString(view.waiting()));
    values.put("eta", WaitWording.describe(view.etaMinSeconds(), view.etaMaxSeconds(), text));
    values.put("etaSeconds", Long.toString(view.etaSeconds()));
    values.put("pollAfterSeconds", Long.toString(view.pollAfterSeconds()));
    values.put("pollCeilingSeconds", Long.toString(view.pollCeilingSeconds()));
    values.put("requeuedHidden", view.requeued() ? "" : "hidden");
    values.put("pausedHidden", hiddenUnless(view, WaitingView.State.PAUSED));
    values.put("closedHidden", hiddenUnless(view, WaitingView.State.CLOSED));
    values.put("state", view.state().value());
    values.put("preQueueHidden", hiddenUnless(view, WaitingView.State.PRE_QUEUE));
    values.put("startsInSeconds", Long.toString(view.startsInSeconds()));
    putMessage(values, message);
    return fill(templates.getOrDefault(room, template), values, text);
  }

  public String render(String room, WaitingView view) {
    return render(room, view, null, text(room, null));
  }

  private static void putMessage(Map<String, String> values, String message) {
    boolean shown = message != null && !message.isBlank();
    values.put("message", shown ? message : "");
    values.put("messageHidden", shown ? "" : "hidden");
  }

  private static String hiddenUnless(WaitingView view, WaitingView.State state) {
    return view.state() == state ? "" : "hidden";
  }

  private String fill(String template, Map<String, String> values, PageText text) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder(template.length() + style.length() + 256);
    while (m.find()) {
      String name = m.group(1);
      String value;
      if (name.equals("style")) {
        value = style;
      } else if (name.equals("lang")) {
        value = text.language();
      } else if (values.containsKey(name)) {
        value = escape(values.get(name));
      } else {
        value = escape(text.all().getOrDefault(name, ""));
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    return m.appendTail(out).toString();
  }

  static String escape(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (char c : value.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  private static String read(String path) {
    try (InputStream in = WaitingPage.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing template " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
