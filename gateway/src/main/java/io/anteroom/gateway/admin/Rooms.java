package io.anteroom.gateway.admin;

import io.anteroom.gateway.room.ItemIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.Overrides;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.RoomSettings;
import io.anteroom.queue.policy.SettingsStore;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * The room and queue an admin request names in its path ({@code {room}}, {@code {item}}), and the
 * room's settings as they are in Redis now.
 */
final class Rooms {

  /** Longest item id accepted in a path; longer raw ids would be hashed, but nobody types them. */
  static final int MAX_ITEM = 1024;

  private final RoomPolicies policies;
  private final SettingsStore store;
  private final Map<String, ItemIds> ids;

  /**
   * @param ids each room's item ids, to tell the items a room can queue from those it never would
   */
  Rooms(RoomPolicies policies, SettingsStore store, Map<String, ItemIds> ids) {
    this.policies = policies;
    this.store = store;
    this.ids = Map.copyOf(ids);
  }

  /**
   * Whether the queue is one the room can have: its item is an id the room accepts in its one
   * spelling, or a hashed id as listed.
   */
  boolean known(QueueId queue) {
    ItemIds rules = ids.get(queue.room());
    String item = queue.item();
    return rules == null
        || item.equals(QueueId.ROOM_WIDE)
        || item.startsWith("~")
        || item.equals(rules.canonical(item));
  }

  /** A configured room's overrides and the settings they make. */
  record Current(String room, RoomPolicy configured, Overrides overrides, RoomSettings settings) {}

  /** The {@code {room}} of the path; 404 when it is not configured. */
  String room(ServerRequest request) {
    String room = request.pathVariable("room");
    if (policies.configured(room) == null) {
      throw AdminException.notFound("unknown room");
    }
    return room;
  }

  /**
   * The queue of the path's {@code {room}} and {@code {item}}: an item id as listed (such as a
   * hashed {@code ~…} id) is kept, any other is normalised as a request's item would be.
   */
  QueueId queue(ServerRequest request) {
    String room = room(request);
    String item = request.pathVariable("item");
    if (item.length() > MAX_ITEM) {
      throw AdminException.badRequest("the item id is longer than " + MAX_ITEM + " characters");
    }
    return QueueId.named(room, item);
  }

  /** The room's settings read from Redis now, not from the gateway's mirror. */
  Mono<Current> current(String room) {
    RoomPolicy configured = policies.configured(room);
    return store
        .overrides(room)
        .map(
            overrides ->
                new Current(
                    room, configured, overrides, policies.apply(room, configured, overrides)));
  }
}
