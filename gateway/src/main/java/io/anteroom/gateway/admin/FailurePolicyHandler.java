package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.gateway.room.FailurePolicySwitch;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.policy.Choice;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.PolicyProperty;
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
 * A room's failure policy on this gateway, readable and switchable while Redis is down: a switch is
 * in force on this gateway at once and stored in Redis when Redis answers ({@link
 * FailurePolicySwitch}). Answers say what is in force here, not what Redis holds.
 */
final class FailurePolicyHandler {

  private static final String NAME = PolicyProperty.FAILURE_POLICY.key();

  private final Rooms rooms;
  private final RoomPolicyMirror mirror;
  private final FailurePolicySwitch flips;
  private final Audit audit;

  FailurePolicyHandler(
      Rooms rooms, RoomPolicyMirror mirror, FailurePolicySwitch flips, Audit audit) {
    this.rooms = rooms;
    this.mirror = mirror;
    this.flips = flips;
    this.audit = audit;
  }

  /** {@code GET /admin/api/rooms/{room}/failure-policy}. */
  Mono<ServerResponse> get(ServerRequest request) {
    String room = rooms.room(request);
    return AdminResponses.ok(view(room, null));
  }

  /** {@code PUT /admin/api/rooms/{room}/failure-policy}. */
  Mono<ServerResponse> put(ServerRequest request) {
    String room = rooms.room(request);
    return JsonBodies.object(request).flatMap(body -> put(request, room, body));
  }

  private Mono<ServerResponse> put(ServerRequest request, String room, ObjectNode body) {
    List<Problem> problems = new ArrayList<>();
    FailurePolicy value = read(body, problems);
    if (!problems.isEmpty()) {
      return AdminResponses.invalid("invalid failure policy", problems);
    }
    FailurePolicy before = mirror.policy(room).failurePolicy();
    return flips
        .flip(room, value)
        .flatMap(
            stored -> {
              Map<String, String> after = new LinkedHashMap<>();
              after.put(NAME, value.value());
              after.put("stored", stored.value());
              audit.record(
                  Actor.of(request),
                  "failure-policy",
                  room,
                  Audit.values(Map.of(NAME, before.value())),
                  Audit.values(after));
              return AdminResponses.ok(view(room, stored));
            });
  }

  /** The body's one value; null with the problems added when it is not exactly that. */
  private static FailurePolicy read(ObjectNode body, List<Problem> problems) {
    for (String name : body.propertyNames()) {
      if (!name.equals(NAME)) {
        problems.add(new Problem(shown(name), "unknown property; only " + NAME + " is set here"));
      }
    }
    JsonNode value = body.get(NAME);
    if (value == null || !value.isString()) {
      problems.add(new Problem(NAME, "must be set to one of open, closed"));
      return null;
    }
    try {
      return Choice.parse(FailurePolicy.class, value.stringValue().strip());
    } catch (IllegalArgumentException e) {
      problems.add(new Problem(NAME, shown(e.getMessage())));
      return null;
    }
  }

  /**
   * {@code {"room", "failure-policy" (in force on this gateway), "local" (the value held on this
   * gateway and not yet read back from Redis, or null), "stored" ("redis" or "local"; after a PUT
   * only)}}.
   */
  private Map<String, Object> view(String room, FailurePolicySwitch.Stored stored) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", room);
    view.put(NAME, mirror.policy(room).failurePolicy().value());
    view.put("local", mirror.local(room).map(held -> held.value().value()).orElse(null));
    if (stored != null) {
      view.put("stored", stored.value());
    }
    return view;
  }

  private static String shown(String text) {
    int max = SettingsPatch.MAX_SHOWN_NAME;
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }
}
