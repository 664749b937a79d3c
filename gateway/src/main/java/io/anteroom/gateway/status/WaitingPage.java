package io.anteroom.gateway.status;

import io.anteroom.gateway.pass.AnteroomCookies;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The waiting page, the closed page, the page shown while the line cannot be reached and the
 * proof-of-work page, rendered from {@code templates/waiting.html}, {@code templates/closed.html},
 * {@code templates/unavailable.html} and {@code templates/challenge.html} with named {@code
 * {{placeholders}}}. Every value is HTML-escaped; the page carries its own script and styles (no
 * external resources).
 */
public final class WaitingPage {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z]+)}}");

  private final String template;
  private final String closedTemplate;
  private final String unavailableTemplate;
  private final String challengeTemplate;

  public WaitingPage() {
    this.template = read("/templates/waiting.html");
    this.closedTemplate = read("/templates/closed.html");
    this.unavailableTemplate = read("/templates/unavailable.html");
    this.challengeTemplate = read("/templates/challenge.html");
  }

  /** The page that solves a proof-of-work challenge and comes back with the answer. */
  public String renderChallenge(String room, String challenge, int difficulty) {
    return fill(
        challengeTemplate,
        Map.of(
            "room",
            room,
            "challenge",
            challenge,
            "difficulty",
            Integer.toString(difficulty),
            "cookie",
            AnteroomCookies.proofName(room)));
  }

  /**
   * The page of a room whose line cannot be reached now; it loads its URL again after {@code
   * retryAfterSeconds}.
   */
  public String renderUnavailable(String room, long retryAfterSeconds) {
    return fill(
        unavailableTemplate,
        Map.of("room", room, "retryAfterSeconds", Long.toString(retryAfterSeconds)));
  }

  /** The page of a closed room or queue. */
  public String renderClosed(String room) {
    return fill(closedTemplate, Map.of("room", room));
  }

  /**
   * @param room the room, for the status endpoint
   * @param view the visitor's place
   */
  public String render(String room, WaitingView view) {
    Map<String, String> values = new HashMap<>();
    values.put("room", room);
    values.put("position", Long.toString(view.position()));
    values.put("waiting", Long.toString(view.waiting()));
    values.put("eta", WaitWording.describe(view.etaMinSeconds(), view.etaMaxSeconds()));
    values.put("etaSeconds", Long.toString(view.etaSeconds()));
    values.put("pollAfterSeconds", Long.toString(view.pollAfterSeconds()));
    values.put("pollCeilingSeconds", Long.toString(view.pollCeilingSeconds()));
    values.put("requeuedHidden", view.requeued() ? "" : "hidden");
    values.put("pausedHidden", hiddenUnless(view, WaitingView.State.PAUSED));
    values.put("closedHidden", hiddenUnless(view, WaitingView.State.CLOSED));
    values.put("state", view.state().value());
    values.put("preQueueHidden", hiddenUnless(view, WaitingView.State.PRE_QUEUE));
    values.put("startsInSeconds", Long.toString(view.startsInSeconds()));
    return fill(template, values);
  }

  private static String hiddenUnless(WaitingView view, WaitingView.State state) {
    return view.state() == state ? "" : "hidden";
  }

  private static String fill(String template, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder(template.length() + 64);
    while (m.find()) {
      m.appendReplacement(
          out, Matcher.quoteReplacement(escape(values.getOrDefault(m.group(1), ""))));
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
