package io.anteroom.gateway.filter;

import java.util.List;
import java.util.Map;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * {@code filters: [ WaitingRoom=shop ]} on a route puts the room {@code shop} of {@code
 * anteroom.rooms} in front of it. A route naming a room that is not configured fails at start-up.
 */
public class WaitingRoomGatewayFilterFactory
    extends AbstractGatewayFilterFactory<WaitingRoomGatewayFilterFactory.Config> {

  private final Map<String, RoomRules> rooms;
  private final WaitingRoomFilter.Shared shared;

  WaitingRoomGatewayFilterFactory(Map<String, RoomRules> rooms, WaitingRoomFilter.Shared shared) {
    super(Config.class);
    this.rooms = Map.copyOf(rooms);
    this.shared = shared;
  }

  @Override
  public List<String> shortcutFieldOrder() {
    return List.of("room");
  }

  @Override
  public GatewayFilter apply(Config config) {
    String room = config.getRoom();
    RoomRules rules = room == null ? null : rooms.get(room);
    if (rules == null) {
      throw new IllegalArgumentException(
          "WaitingRoom=" + room + ": no such room in anteroom.rooms " + rooms.keySet());
    }
    return new WaitingRoomFilter(room, rules.ids(), rules.bypass(), shared);
  }

  /** The filter's argument: the room. */
  public static class Config {
    private String room;

    public String getRoom() {
      return room;
    }

    public void setRoom(String room) {
      this.room = room;
    }
  }
}
