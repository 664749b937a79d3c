package io.anteroom.gateway.status;

import java.util.Set;

/**
 * The visitor pages, each with the file name of its template (built in under {@code templates/}, or
 * in a room's {@code templates} directory) and the placeholders it fills besides the page text.
 */
enum PageKind {
  /** In line (also the pre-queue, and closed while the line is kept). */
  WAITING("waiting.html", Names.WAITING),
  /** In line while admission is paused; the waiting page unless the room has its own. */
  PAUSED("paused.html", Names.WAITING),
  CLOSED("closed.html", Set.of("lang", "style", "room", "message", "messageHidden")),
  UNAVAILABLE(
      "unavailable.html",
      Set.of("lang", "style", "room", "retryAfterSeconds", "message", "messageHidden")),
  CHALLENGE(
      "challenge.html",
      Set.of(
          "lang",
          "style",
          "room",
          "challenge",
          "difficulty",
          "cookie",
          "message",
          "messageHidden")),
  LIMITED(
      "limited.html", Set.of("lang", "style", "room", "reason", "reasonText", "retryAfterSeconds"));

  private final String file;
  private final Set<String> placeholders;

  PageKind(String file, Set<String> placeholders) {
    this.file = file;
    this.placeholders = placeholders;
  }

  String file() {
    return file;
  }

  /** The placeholders the page fills besides the page text. */
  Set<String> placeholders() {
    return placeholders;
  }

  private static final class Names {
    static final Set<String> WAITING =
        Set.of(
            "lang",
            "style",
            "room",
            "position",
            "waiting",
            "eta",
            "etaSeconds",
            "pollAfterSeconds",
            "pollCeilingSeconds",
            "requeuedHidden",
            "frontHidden",
            "pausedHidden",
            "closedHidden",
            "state",
            "preQueueHidden",
            "startsInSeconds",
            "kept",
            "keptHidden",
            "message",
            "messageHidden");
  }
}
