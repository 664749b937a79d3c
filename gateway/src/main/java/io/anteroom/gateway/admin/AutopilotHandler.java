package io.anteroom.gateway.admin;

import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/api/rooms/{room}/autopilot}: where the room's auto-pilot stands ({@link
 * AutopilotView}), read from Redis on every call with the room's settings, as the workers left it.
 * It is turned on and off, and its bounds changed, through the room's settings.
 */
final class AutopilotHandler {

  private final Rooms rooms;
  private final RedisPilot pilot;
  private final Clock clock;

  AutopilotHandler(Rooms rooms, RedisPilot pilot, Clock clock) {
    this.rooms = rooms;
    this.pilot = pilot;
    this.clock = clock;
  }

  Mono<ServerResponse> room(ServerRequest request) {
    String room = rooms.room(request);
    return Mono.zip(
            rooms.current(room),
            pilot.state(room),
            pilot.changes(room, AutopilotView.CHANGES_SHOWN))
        .map(
            t ->
                AutopilotView.of(
                    room, t.getT1().settings().policy(), t.getT2(), t.getT3(), clock.millis()))
        .flatMap(AdminResponses::ok);
  }

  /** The room listing's {@code "autopilot"}: on, share, ceiling, rate, per and summary. */
  Mono<Map<String, Object>> compact(String room, RoomPolicy policy) {
    return pilot.state(room).map(state -> AutopilotView.compact(policy, state, clock.millis()));
  }
}
