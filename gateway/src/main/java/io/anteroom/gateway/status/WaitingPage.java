package io.anteroom.gateway.status;

import io.anteroom.gateway.line.WaitingView;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.config.RoomOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The visitor pages: waiting (also paused), closed, unavailable, proof of work and limited, from
 * {@code templates/<page>.html} or a room's own ({@link RoomPages}), filled in with named {@code
 * {{placeholders}}}: the values of the moment and every key of the page text ({@link PageText}) in
 * the chosen language. Every value is HTML-escaped except {@code {{style}}}, the one shared
 * stylesheet ({@code templates/page.css}) inlined into each page; pages load nothing from
 * elsewhere.
 */
public final class WaitingPage {

  /** The placeholders of the waiting page besides the page text. */
  public static final Set<String> WAITING_PLACEHOLDERS = PageKind.WAITING.placeholders();

  private final String style;
  private final Map<PageKind, String> builtIn;
  private final Map<String, RoomPages> rooms;

  /** The built-in pages for every room, in the language each request asks for. */
  public WaitingPage() {
    this(Map.of());
  }

  /**
   * @param rooms the rooms with their own pages, wording or language
   */
  WaitingPage(Map<String, RoomPages> rooms) {
    this.style = read("/templates/page.css");
    Map<PageKind, String> pages = new EnumMap<>(PageKind.class);
    for (PageKind kind : PageKind.values()) {
      if (kind != PageKind.PAUSED) {
        pages.put(kind, builtInTemplate(kind));
      }
    }
    this.builtIn = pages;
    this.rooms = Map.copyOf(rooms);
  }

  /**
   * The pages with each room's {@code language}, {@code template} and {@code templates} options; a
   * problem with any fails with a message naming the room, the file and the line ({@link
   * RoomPages}).
   */
  public static WaitingPage of(AnteroomProperties anteroom) {
    Map<String, RoomPages> rooms = new LinkedHashMap<>();
    for (Map.Entry<String, RoomOptions> room : anteroom.roomOptions().entrySet()) {
      rooms.put(room.getKey(), RoomPages.of(room.getKey(), room.getValue()));
    }
    return new WaitingPage(rooms);
  }

  private static String builtInTemplate(PageKind kind) {
    String path = "/templates/" + kind.file();
    String text = read(path);
    Set<String> keys = PageText.english().all().keySet();
    List<String> problems =
        TemplateCheck.problems(
            path, text, name -> kind.placeholders().contains(name) || keys.contains(name));
    if (!problems.isEmpty()) {
      throw new IllegalStateException(String.join("; ", problems));
    }
    return text;
  }

  private RoomPages pages(String room) {
    return rooms.getOrDefault(room, RoomPages.BUILT_IN);
  }

  /** The wording for a request to {@code room}: the room's language, else Accept-Language. */
  public PageText text(String room, String acceptLanguage) {
    RoomPages pages = pages(room);
    return PageText.choose(pages.languages(), pages.language(), acceptLanguage);
  }

  /** The languages the room's pages can be written in. */
  public Set<String> languages(String room) {
    return pages(room).languages().keySet();
  }

  /** The room's default language: its operator message in this one is shown when none other is. */
  public String defaultLanguage(String room) {
    return pages(room).defaultLanguage();
  }

  /**
   * The room's template of {@code kind}: its own, else (for paused) its waiting page, else ours.
   */
  private String template(String room, PageKind kind) {
    Map<PageKind, String> own = pages(room).templates();
    if (own.containsKey(kind)) {
      return own.get(kind);
    }
    if (kind == PageKind.PAUSED) {
      return template(room, PageKind.WAITING);
    }
    return builtIn.get(kind);
  }

  /** The page that solves a proof-of-work challenge and comes back with the answer. */
  public String renderChallenge(
      String room, String challenge, int difficulty, String message, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("challenge", challenge);
    values.put("difficulty", Integer.toString(difficulty));
    values.put("cookie", AnteroomCookies.proofName(room));
    putMessage(values, message);
    return fill(template(room, PageKind.CHALLENGE), values, text);
  }

  public String renderChallenge(String room, String challenge, int difficulty) {
    return renderChallenge(room, challenge, difficulty, null, text(room, null));
  }

  /**
   * The page of a room whose line cannot be reached now; it loads its URL again after {@code
   * retryAfterSeconds}.
   */
  public String renderUnavailable(
      String room, long retryAfterSeconds, String message, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("retryAfterSeconds", Long.toString(retryAfterSeconds));
    putMessage(values, message);
    return fill(template(room, PageKind.UNAVAILABLE), values, text);
  }

  public String renderUnavailable(String room, long retryAfterSeconds) {
    return renderUnavailable(room, retryAfterSeconds, null, text(room, null));
  }

  /** The page of a closed room or queue, with the room's operator message when there is one. */
  public String renderClosed(String room, String message, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    putMessage(values, message);
    return fill(template(room, PageKind.CLOSED), values, text);
  }

  public String renderClosed(String room) {
    return renderClosed(room, null, text(room, null));
  }

  /** The page of a request refused a new place by a limit. */
  public String renderLimited(
      String room, String reason, String reasonKey, long retryAfterSeconds, PageText text) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("reason", reason);
    values.put("reasonText", text.get(reasonKey));
    values.put("retryAfterSeconds", Long.toString(retryAfterSeconds));
    return fill(template(room, PageKind.LIMITED), values, text);
  }

  /**
   * The waiting page, or the room's paused page while admission is paused.
   *
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
    values.put("frontHidden", view.front() ? "" : "hidden");
    values.put("pausedHidden", hiddenUnless(view, WaitingView.State.PAUSED));
    values.put("closedHidden", hiddenUnless(view, WaitingView.State.CLOSED));
    values.put("state", view.state().value());
    values.put("preQueueHidden", hiddenUnless(view, WaitingView.State.PRE_QUEUE));
    values.put("startsInSeconds", Long.toString(view.startsInSeconds()));
    values.put("kept", WaitWording.kept(view.placeKeptSeconds(), text));
    values.put("keptHidden", view.placeKeptSeconds() > 0 ? "" : "hidden");
    putMessage(values, message);
    PageKind kind = view.state() == WaitingView.State.PAUSED ? PageKind.PAUSED : PageKind.WAITING;
    return fill(template(room, kind), values, text);
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
    Matcher m = TemplateCheck.PLACEHOLDER.matcher(template);
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
