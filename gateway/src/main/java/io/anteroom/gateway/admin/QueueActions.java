package io.anteroom.gateway.admin;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.admin.AdminResponses.Problem;
import io.anteroom.gateway.line.LineEvents;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.Mode;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.SettingsStore;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The admin API's actions on one queue ({@code POST /admin/api/rooms/{room}/queues/{item}/…}):
 * activate, deactivate, pause, resume (each answers with the queue as listed) and release.
 */
final class QueueActions {

  private static final String MODE = PolicyProperty.MODE.key();

  private final Rooms rooms;
  private final RoomListing listing;
  private final ActiveQueues active;
  private final QueueStore queues;
  private final SettingsStore settings;
  private final ActiveQueueMirror activeMirror;
  private final RoomPolicyMirror policyMirror;
  private final Audit audit;
  private final LineEvents events;

  QueueActions(
      Rooms rooms,
      RoomListing listing,
      ActiveQueues active,
      QueueStore queues,
      SettingsStore settings,
      ActiveQueueMirror activeMirror,
      RoomPolicyMirror policyMirror,
      Audit audit,
      LineEvents events) {
    this.rooms = rooms;
    this.listing = listing;
    this.active = active;
    this.queues = queues;
    this.settings = settings;
    this.activeMirror = activeMirror;
    this.policyMirror = policyMirror;
    this.audit = audit;
    this.events = events;
  }

  /** Turns the queue on as manual, which traffic never turns off. */
  Mono<ServerResponse> activate(ServerRequest request) {
    QueueId queue = rooms.reachable(request);
    return activation(queue)
        .flatMap(
            old ->
                active
                    .activate(queue, Activation.MANUAL)
                    .doOnSuccess(
                        changed ->
                            audit.record(
                                Actor.of(request), "activate", queue.toString(), old, "manual")))
        .then(refreshActive())
        .then(respond(queue));
  }

  /** Turns the queue off, whatever turned it on. */
  Mono<ServerResponse> deactivate(ServerRequest request) {
    QueueId queue = rooms.reachable(request);
    return activation(queue)
        .flatMap(
            old ->
                active
                    .deactivate(queue)
                    .doOnSuccess(
                        changed ->
                            audit.record(
                                Actor.of(request), "deactivate", queue.toString(), old, "off")))
        .then(refreshActive())
        .then(respond(queue));
  }

  /**
   * Sets the queue's {@code mode} override to {@code paused}: the line is kept, nobody admitted.
   */
  Mono<ServerResponse> pause(ServerRequest request) {
    QueueId queue = rooms.reachable(request);
    return rooms
        .current(queue.room())
        .flatMap(
            current ->
                settings
                    .put(queue.room(), queue.item(), Map.of(MODE, Mode.PAUSED.value()))
                    .then(
                        Mono.fromRunnable(
                            () -> recordMode(request, "pause", queue, current, Mode.PAUSED))))
        .then(refreshPolicies())
        .then(respond(queue));
  }

  /**
   * Removes the queue's {@code mode} override; when the room itself is paused, sets the queue's
   * mode to {@code queue} instead, so the queue is no longer paused either way (it then follows the
   * room's mode, or {@code queue}).
   */
  Mono<ServerResponse> resume(ServerRequest request) {
    QueueId queue = rooms.reachable(request);
    return rooms
        .current(queue.room())
        .flatMap(
            current -> {
              Mode roomMode = current.settings().policy().mode();
              Mono<Void> write =
                  roomMode == Mode.PAUSED
                      ? settings.put(queue.room(), queue.item(), Map.of(MODE, Mode.QUEUE.value()))
                      : settings.remove(queue.room(), queue.item(), Set.of(MODE));
              Mode now = roomMode == Mode.PAUSED ? Mode.QUEUE : roomMode;
              return write.then(
                  Mono.fromRunnable(() -> recordMode(request, "resume", queue, current, now)));
            })
        .then(refreshPolicies())
        .then(respond(queue));
  }

  /** Ends a visitor's session or gives up their place: body {@code {"visitor": "<id>"}}. */
  Mono<ServerResponse> release(ServerRequest request) {
    QueueId queue = rooms.reachable(request);
    return JsonBodies.object(request)
        .flatMap(
            body -> {
              JsonNode visitor = body.get("visitor");
              if (visitor == null
                  || !visitor.isString()
                  || !VisitorIds.isVisitorId(visitor.stringValue())) {
                return AdminResponses.invalid(
                    "invalid request",
                    List.of(
                        new Problem(
                            "visitor",
                            "must be a visitor id: "
                                + VisitorIds.LENGTH
                                + " base64url characters")));
              }
              String id = visitor.stringValue();
              // The room's queues that are on: a session in one of them keeps the visitor an
              // active user of the room.
              return active
                  .list()
                  .map(
                      on ->
                          on.keySet().stream().filter(q -> q.room().equals(queue.room())).toList())
                  .flatMap(others -> queues.release(queue, id, others))
                  .flatMap(released -> released(request, queue, id, released));
            });
  }

  private Mono<ServerResponse> released(
      ServerRequest request, QueueId queue, String visitor, boolean released) {
    if (!released) {
      return AdminResponses.error(
          HttpStatus.NOT_FOUND, "the visitor is neither waiting nor admitted in this queue");
    }
    events.released(queue.room(), LineEvents.Releaser.ADMIN);
    audit.record(Actor.of(request), "release", queue.toString(), "visitor " + visitor, "released");
    return AdminResponses.ok(
        Map.of("queue", queue.toString(), "visitor", visitor, "released", true));
  }

  /** How the queue is on now: manual, auto or off. */
  private Mono<String> activation(QueueId queue) {
    return active.list().map(on -> on.containsKey(queue) ? on.get(queue).value() : "off");
  }

  private void recordMode(
      ServerRequest request, String what, QueueId queue, Rooms.Current before, Mode now) {
    String old = before.settings().forItem(queue.item()).mode().value();
    audit.record(Actor.of(request), what, queue.toString(), "mode=" + old, "mode=" + now.value());
  }

  private Mono<Void> refreshActive() {
    return activeMirror.refresh().onErrorResume(e -> Mono.empty());
  }

  private Mono<Void> refreshPolicies() {
    return policyMirror.refresh().onErrorResume(e -> Mono.empty());
  }

  private Mono<ServerResponse> respond(QueueId queue) {
    return Mono.defer(() -> listing.queueView(queue)).flatMap(AdminResponses::ok);
  }
}
