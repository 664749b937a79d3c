package io.anteroom.gateway.room;

import io.anteroom.queue.QueueId;
import java.util.Map;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * Where a room finds the item a request is for: {@code path:<variable>} (a template variable of the
 * route's Path predicate, such as {@code /products/{id}}), {@code query:<name>}, {@code
 * header:<name>}, or {@code room} for one line per room. A request without the value queues in the
 * room-wide line, so no request slips past the room.
 */
public sealed interface ItemSource {

  /** The raw item id of the request, or {@link QueueId#ROOM_WIDE}. */
  String item(ServerWebExchange exchange);

  /**
   * Reads the {@code item} room option.
   *
   * @throws IllegalArgumentException naming the property when the value has no known form
   */
  static ItemSource parse(String room, String spec) {
    String property = "anteroom.rooms." + room + ".item";
    if (spec == null || spec.equals("room")) {
      return new RoomWide();
    }
    int colon = spec.indexOf(':');
    String kind = colon < 0 ? spec : spec.substring(0, colon);
    String name = colon < 0 ? "" : spec.substring(colon + 1).trim();
    if (name.isEmpty()) {
      throw new IllegalArgumentException(
          property
              + ": must be room, path:<variable>, query:<name> or header:<name>; was '"
              + spec
              + "'");
    }
    return switch (kind) {
      case "path" -> new PathVariable(name);
      case "query" -> new QueryParameter(name);
      case "header" -> new Header(name);
      default ->
          throw new IllegalArgumentException(
              property + ": unknown source '" + kind + "'; use room, path:, query: or header:");
    };
  }

  private static String orRoomWide(String value) {
    return value == null || value.isEmpty() ? QueueId.ROOM_WIDE : value;
  }

  /** One line for the whole room. */
  record RoomWide() implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      return QueueId.ROOM_WIDE;
    }
  }

  /** A template variable of the route's Path predicate. */
  record PathVariable(String name) implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      // Read directly: getUriTemplateVariables builds an empty default map on every call.
      Map<String, String> variables =
          exchange.getAttribute(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
      return orRoomWide(variables == null ? null : variables.get(name));
    }
  }

  /** A query parameter. */
  record QueryParameter(String name) implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      return orRoomWide(exchange.getRequest().getQueryParams().getFirst(name));
    }
  }

  /** A request header. */
  record Header(String name) implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      return orRoomWide(exchange.getRequest().getHeaders().getFirst(name));
    }
  }
}
