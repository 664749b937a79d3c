package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.gateway.room.RoomMessages;
import io.anteroom.gateway.status.WaitingPage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A room's live operator message ({@link RoomMessages}): plain text of at most {@link
 * RoomMessages#MAX_LENGTH} characters shown, escaped, on every visitor page of the room and in its
 * JSON status; null or blank removes it. With a {@code language} (one of the room's page
 * languages), the message in that language, shown on pages in that language instead; without one,
 * or in the room's default language, the room's message, shown where no other language has one.
 */
final class MessageHandler {

  private static final String NAME = "message";
  private static final String LANGUAGE = "language";

  private final Rooms rooms;
  private final RoomMessages messages;
  private final WaitingPage pages;
  private final Audit audit;

  MessageHandler(Rooms rooms, RoomMessages messages, WaitingPage pages, Audit audit) {
    this.rooms = rooms;
    this.messages = messages;
    this.pages = pages;
    this.audit = audit;
  }

  /** {@code GET /admin/api/rooms/{room}/message}. */
  Mono<ServerResponse> get(ServerRequest request) {
    String room = rooms.room(request);
    return AdminResponses.ok(view(room, null, messages.message(room)));
  }

  /** {@code PUT /admin/api/rooms/{room}/message}. */
  Mono<ServerResponse> put(ServerRequest request) {
    String room = rooms.room(request);
    return JsonBodies.object(request).flatMap(body -> put(request, room, body));
  }

  private Mono<ServerResponse> put(ServerRequest request, String room, ObjectNode body) {
    List<Problem> problems = new ArrayList<>();
    for (String name : body.propertyNames()) {
      if (!name.equals(NAME) && !name.equals(LANGUAGE)) {
        problems.add(
            new Problem(shown(name), "unknown property; only message and language are set here"));
      }
    }
    JsonNode value = body.get(NAME);
    String text = null;
    if (value == null || !(value.isString() || value.isNull())) {
      problems.add(new Problem(NAME, "must be a string, or null to remove the message"));
    } else if (value.isString()) {
      text = value.stringValue().strip();
      if (text.length() > RoomMessages.MAX_LENGTH) {
        problems.add(new Problem(NAME, "at most " + RoomMessages.MAX_LENGTH + " characters"));
      }
    }
    String language = language(room, body.get(LANGUAGE), problems);
    if (!problems.isEmpty()) {
      return AdminResponses.invalid("invalid message", problems);
    }
    String before = language == null ? messages.message(room) : translation(room, language);
    String after = text == null || text.isEmpty() ? null : text;
    String what = language == null ? NAME : NAME + "." + language;
    return messages
        .set(room, language, after)
        .then(
            Mono.defer(
                () -> {
                  audit.record(
                      Actor.of(request),
                      what,
                      room,
                      Audit.values(Map.of(what, String.valueOf(before))),
                      Audit.values(Map.of(what, String.valueOf(after))));
                  return AdminResponses.ok(view(room, language, after));
                }));
  }

  /**
   * The language the message is for: null for the room's message (none given, or the room's default
   * language); a problem when it is not one of the room's page languages.
   */
  private String language(String room, JsonNode value, List<Problem> problems) {
    if (value == null || value.isNull()) {
      return null;
    }
    Set<String> known = pages.languages(room);
    if (!value.isString() || !known.contains(value.stringValue())) {
      problems.add(
          new Problem(
              LANGUAGE,
              "must be one of the room's languages " + String.join(", ", new TreeSet<>(known))));
      return null;
    }
    String language = value.stringValue();
    return language.equals(pages.defaultLanguage(room)) ? null : language;
  }

  private String translation(String room, String language) {
    return messages.translations(room).get(language);
  }

  /**
   * {@code {"room", "message" (null when none), "messages": {language: text}, "default-language",
   * "languages" (every page language of the room)}}; with the language set, also {@code
   * "language"}.
   */
  private Map<String, Object> view(String room, String language, String message) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", room);
    if (language != null) {
      view.put(LANGUAGE, language);
    }
    view.put(NAME, language == null ? message : messages.message(room));
    view.put("messages", new TreeMap<>(messages.translations(room)));
    view.put("default-language", pages.defaultLanguage(room));
    view.put("languages", new TreeSet<>(pages.languages(room)));
    return view;
  }

  private static String shown(String text) {
    int max = SettingsPatch.MAX_SHOWN_NAME;
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }
}
