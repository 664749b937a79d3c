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
    return queue.item().equals(spelled(queue.room(), queue.item()));
  }

  /**
   * The queue's item id as the room spells it: kept when it is the room-wide queue or a hashed id
   * as listed; null for an id the room refuses.
   */
  private String spelled(String room, String item) {
    ItemIds rules = ids.get(room);
    if (rules == null || item.equals(QueueId.ROOM_WIDE) || item.startsWith("~")) {
      return item;
    }
    return rules.canonical(item);
  }

  /** Why the queue is not {@link #known}, for an operator. */
  String unknown(QueueId queue) {
    return unknown(queue.room(), queue.item());
  }

  private String unknown(String room, String item) {
    String spelled = spelled(room, item);
    return "'"
        + item
        + "' is not an item id of room "
        + room
        + (spelled == null ? ": its requests are refused" : ": it is spelled '" + spelled + "'");
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
   * The queue of the path's {@code {room}} and {@code {item}}, its id as typed (an odd one hashed
   * as {@link QueueId#named} does): for settings, which say themselves when an id is not the room's
   * ({@link #known}). Actions take {@link #reachable}.
   */
  QueueId queue(ServerRequest request) {
    String room = room(request);
    String item = request.pathVariable("item");
    if (item.length() > MAX_ITEM) {
      throw AdminException.badRequest("the item id is longer than " + MAX_ITEM + " characters");
    }
    return QueueId.named(room, item);
  }

  /**
   * The queue of the path's {@code {room}} and {@code {item}} as visitors reach it, for an action
   * on it: an item id as listed (such as a hashed {@code ~…} id) is kept, any other is spelled as
   * the room spells its items ({@code 02} is product {@code 2} where ids are numbers); 400 for an
   * id the room refuses, whose queue nobody could ever be in.
   */
  QueueId reachable(ServerRequest request) {
    String room = queue(request).room();
    String item = request.pathVariable("item");
    String spelled = spelled(room, item);
    if (spelled == null) {
      throw AdminException.badRequest(unknown(room, item));
    }
    return QueueId.named(room, spelled);
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
