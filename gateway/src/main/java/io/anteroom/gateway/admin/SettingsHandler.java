package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.InvalidPolicyException;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SettingsStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and changes live overrides of a room or of one of its queues. A PATCH is checked whole
 * before anything is written: every bad property is named in one 400 and nothing changes. A room
 * change that would make a queue's existing overrides invalid is refused the same way. A patch that
 * sets or removes {@code failure-policy} needs the admin role, as {@link FailurePolicyHandler}
 * does.
 */
final class SettingsHandler {

  private static final String PATCH = "patch";
  private static final String FAILURE_POLICY = PolicyProperty.FAILURE_POLICY.key();
  private static final String MODE = PolicyProperty.MODE.key();

  private final Rooms rooms;
  private final SettingsStore store;
  private final RoomPolicyMirror mirror;
  private final Audit audit;

  SettingsHandler(Rooms rooms, SettingsStore store, RoomPolicyMirror mirror, Audit audit) {
    this.rooms = rooms;
    this.store = store;
    this.mirror = mirror;
    this.audit = audit;
  }

  /** {@code GET /admin/api/rooms/{room}/settings}. */
  Mono<ServerResponse> room(ServerRequest request) {
    return rooms
        .current(rooms.room(request))
        .map(SettingsHandler::roomView)
        .flatMap(AdminResponses::ok);
  }

  /** {@code GET /admin/api/rooms/{room}/queues/{item}/settings}. */
  Mono<ServerResponse> queue(ServerRequest request) {
    QueueId queue = rooms.queue(request);
    return rooms.current(queue.room()).map(c -> queueView(c, queue)).flatMap(AdminResponses::ok);
  }

  /** {@code PATCH /admin/api/rooms/{room}/settings}. */
  Mono<ServerResponse> patchRoom(ServerRequest request) {
    String room = rooms.room(request);
    return JsonBodies.object(request)
        .zipWith(rooms.current(room))
        .flatMap(t -> patchRoom(request, t.getT2(), t.getT1()));
  }

  /** {@code PATCH /admin/api/rooms/{room}/queues/{item}/settings}. */
  Mono<ServerResponse> patchQueue(ServerRequest request) {
    QueueId queue = rooms.queue(request);
    return JsonBodies.object(request)
        .zipWith(rooms.current(queue.room()))
        .flatMap(t -> patchQueue(request, t.getT2(), queue, t.getT1()));
  }

  private Mono<ServerResponse> patchRoom(
      ServerRequest request, Rooms.Current current, ObjectNode body) {
    List<Problem> problems = new ArrayList<>();
    SettingsPatch patch = SettingsPatch.read(body, problems);
    Operator operator = Operator.of(request);
    if (!allowed(operator, patch)) {
      return AdminResponses.forbidden(Role.ADMIN, operator.role());
    }
    RoomPolicy before = current.settings().policy();
    RoomPolicy after =
        parse(current.configured(), patch.applyTo(current.overrides().room()), problems);
    if (after != null) {
      current
          .overrides()
          .queues()
          .forEach((item, values) -> checkQueueStillValid(item, values, before, after, problems));
    }
    if (!problems.isEmpty()) {
      return AdminResponses.invalid("invalid settings", problems);
    }
    String room = current.room();
    return write(room, null, patch)
        .doOnSuccess(done -> record(request, "room-settings", room, patch, before, after))
        .then(
            patch.properties().contains(MODE)
                ? queueModesGone(request, current, after)
                : Mono.empty())
        .then(Mono.defer(() -> rooms.current(room)))
        .map(SettingsHandler::roomView)
        .flatMap(AdminResponses::ok);
  }

  private Mono<ServerResponse> patchQueue(
      ServerRequest request, Rooms.Current current, QueueId queue, ObjectNode body) {
    List<Problem> problems = new ArrayList<>();
    SettingsPatch patch = SettingsPatch.read(body, problems);
    Operator operator = Operator.of(request);
    if (!allowed(operator, patch)) {
      return AdminResponses.forbidden(Role.ADMIN, operator.role());
    }
    if (!rooms.known(queue)) {
      patch
          .set()
          .keySet()
          .forEach(property -> problems.add(new Problem(property, rooms.unknown(queue))));
    }
    RoomPolicy before = current.settings().forItem(queue.item());
    Map<String, String> overrides =
        current.overrides().queues().getOrDefault(queue.item(), Map.of());
    RoomPolicy after = parseQueue(current.settings().policy(), patch.applyTo(overrides), problems);
    if (!problems.isEmpty()) {
      return AdminResponses.invalid("invalid settings", problems);
    }
    return write(queue.room(), queue.item(), patch)
        .doOnSuccess(
            done -> record(request, "queue-settings", queue.toString(), patch, before, after))
        .then(Mono.defer(() -> rooms.current(queue.room())))
        .map(c -> queueView(c, queue))
        .flatMap(AdminResponses::ok);
  }

  /**
   * A room-wide mode reaches every queue: the queues' own modes (a pause or a resume of one queue)
   * are removed, each change audited, so that closing or pausing the room leaves no queue open by
   * an override made before.
   */
  private Mono<Void> queueModesGone(
      ServerRequest request, Rooms.Current current, RoomPolicy after) {
    return Flux.fromIterable(current.overrides().queues().entrySet())
        .filter(queue -> queue.getValue().containsKey(MODE))
        .concatMap(
            queue -> {
              QueueId id = QueueId.named(current.room(), queue.getKey());
              String old = current.settings().forItem(queue.getKey()).mode().value();
              return store
                  .change(current.room(), queue.getKey(), Map.of(), Set.of(MODE))
                  .doOnSuccess(
                      done ->
                          audit.record(
                              Actor.of(request),
                              "queue-settings",
                              id.toString(),
                              "mode=" + old,
                              "mode=" + after.mode().value()));
            })
        .then(mirror.refresh().onErrorResume(e -> Mono.empty()));
  }

  /**
   * Whether the operator's role may make the patch: one that touches {@code failure-policy} needs
   * an admin, as its own call does.
   */
  private static boolean allowed(Operator operator, SettingsPatch patch) {
    return !patch.properties().contains(FAILURE_POLICY) || operator.role().allows(Role.ADMIN);
  }

  /** The overrides on {@code base}, or null with the problems added. */
  private static RoomPolicy parse(
      RoomPolicy base, Map<String, String> values, List<Problem> problems) {
    return parse(base, values, problems, false);
  }

  /** The overrides on {@code base} for one queue, or null with the problems added. */
  private static RoomPolicy parseQueue(
      RoomPolicy base, Map<String, String> values, List<Problem> problems) {
    return parse(base, values, problems, true);
  }

  private static RoomPolicy parse(
      RoomPolicy base, Map<String, String> values, List<Problem> problems, boolean queue) {
    try {
      return queue
          ? PolicyParser.applyToQueue(PATCH, base, values)
          : PolicyParser.apply(PATCH, base, values);
    } catch (InvalidPolicyException e) {
      problems.addAll(SettingsPatch.problems(PATCH, "", e));
      return null;
    }
  }

  /** Adds a problem when a queue's overrides that held on the old room policy fail on the new. */
  private static void checkQueueStillValid(
      String item,
      Map<String, String> values,
      RoomPolicy before,
      RoomPolicy after,
      List<Problem> problems) {
    try {
      PolicyParser.applyToQueue(PATCH, before, values);
    } catch (InvalidPolicyException e) {
      return;
    }
    try {
      PolicyParser.applyToQueue(PATCH, after, values);
    } catch (InvalidPolicyException e) {
      problems.addAll(
          SettingsPatch.problems(PATCH, "would break the overrides of queue " + item + ": ", e));
    }
  }

  private Mono<Void> write(String room, String item, SettingsPatch patch) {
    return store
        .change(room, item, patch.set(), patch.remove())
        .then(mirror.refresh().onErrorResume(e -> Mono.empty()));
  }

  private void record(
      ServerRequest request,
      String what,
      String target,
      SettingsPatch patch,
      RoomPolicy before,
      RoomPolicy after) {
    if (!patch.properties().isEmpty()) {
      audit.record(Actor.of(request), what, target, touched(before, patch), touched(after, patch));
    }
  }

  /** The values in force of the properties the patch touches. */
  private static String touched(RoomPolicy policy, SettingsPatch patch) {
    Map<String, String> all = PolicyView.of(policy);
    Map<String, String> values = new LinkedHashMap<>();
    patch.properties().forEach(p -> values.put(p, all.get(p)));
    return Audit.values(values);
  }

  private static Map<String, Object> roomView(Rooms.Current current) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", current.room());
    view.put("configured", PolicyView.of(current.configured()));
    view.put("overrides", PolicyView.sorted(current.overrides().room()));
    view.put("effective", PolicyView.of(current.settings().policy()));
    return view;
  }

  private static Map<String, Object> queueView(Rooms.Current current, QueueId queue) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", queue.room());
    view.put("item", queue.item());
    view.put("queue", queue.toString());
    view.put("inherited", PolicyView.of(current.settings().policy()));
    view.put(
        "overrides",
        PolicyView.sorted(current.overrides().queues().getOrDefault(queue.item(), Map.of())));
    view.put("effective", PolicyView.of(current.settings().forItem(queue.item())));
    return view;
  }
}
