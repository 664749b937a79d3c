package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.gateway.room.RoomMessages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A room's live operator message ({@link RoomMessages}): plain text of at most {@link
 * RoomMessages#MAX_LENGTH} characters shown, escaped, on every visitor page of the room and in its
 * JSON status; null or blank removes it.
 */
final class MessageHandler {

  private static final String NAME = "message";

  private final Rooms rooms;
  private final RoomMessages messages;
  private final Audit audit;

  MessageHandler(Rooms rooms, RoomMessages messages, Audit audit) {
    this.rooms = rooms;
    this.messages = messages;
    this.audit = audit;
  }

  /** {@code GET /admin/api/rooms/{room}/message}. */
  Mono<ServerResponse> get(ServerRequest request) {
    String room = rooms.room(request);
    return AdminResponses.ok(view(room, messages.message(room)));
  }

  /** {@code PUT /admin/api/rooms/{room}/message}. */
  Mono<ServerResponse> put(ServerRequest request) {
    String room = rooms.room(request);
    return JsonBodies.object(request).flatMap(body -> put(request, room, body));
  }

  private Mono<ServerResponse> put(ServerRequest request, String room, ObjectNode body) {
    List<Problem> problems = new ArrayList<>();
    for (String name : body.propertyNames()) {
      if (!name.equals(NAME)) {
        problems.add(new Problem(shown(name), "unknown property; only message is set here"));
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
    if (!problems.isEmpty()) {
      return AdminResponses.invalid("invalid message", problems);
    }
    String before = messages.message(room);
    String after = text == null || text.isEmpty() ? null : text;
    return messages
        .set(room, after)
        .then(
            Mono.defer(
                () -> {
                  audit.record(
                      Actor.of(request),
                      NAME,
                      room,
                      Audit.values(Map.of(NAME, String.valueOf(before))),
                      Audit.values(Map.of(NAME, String.valueOf(after))));
                  return AdminResponses.ok(view(room, after));
                }));
  }

  /** {@code {"room", "message" (null when none)}}. */
  private static Map<String, Object> view(String room, String message) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", room);
    view.put(NAME, message);
    return view;
  }

  private static String shown(String text) {
    int max = SettingsPatch.MAX_SHOWN_NAME;
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }
}
