package io.anteroom.gateway.room;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Where a room finds the item a request is for: {@code path:<variable>} (a template variable of the
 * route's Path predicate, such as {@code /products/{id}}), {@code query:<name>}, {@code
 * header:<name>}, or {@code room} for one line per room. A request without the value queues in the
 * room-wide line, so no request slips past the room. A query parameter or header that is there more
 * than once, empty or percent-encoded is read as the empty id, which no room accepts: origins
 * differ on which of two values counts and on what an encoded one means. So is one that only looks
 * like it, which some origin may read as the item: a query parameter named in another case or with
 * brackets ({@code ID}, {@code id[]}, {@code id[0]}), a header with {@code _} for {@code -}.
 */
public sealed interface ItemSource {

  /** The raw item id of the request (decoded from the path), or null when it names none. */
  String item(ServerWebExchange exchange);

  /**
   * Whether the item is the request path's last segment, or part of it: then that segment's
   * extension belongs to the item ({@code /products/1.js}), not to a static asset.
   */
  default boolean holdsLastSegment(ServerWebExchange exchange) {
    return false;
  }

  /**
   * Whether the item is read from the request's parameters or headers, where an origin may also
   * find it in a form or a body the gateway does not read: a write naming no item then needs a pass
   * of the room.
   */
  default boolean readsParameters() {
    return false;
  }

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

  /** One line for the whole room. */
  record RoomWide() implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      return null;
    }
  }

  /** A template variable of the route's Path predicate. */
  record PathVariable(String name) implements ItemSource {
    @Override
    public String item(ServerWebExchange exchange) {
      // Read directly: getUriTemplateVariables builds an empty default map on every call.
      Map<String, String> variables =
          exchange.getAttribute(ServerWebExchangeUtils.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
      return variables == null ? null : variables.get(name);
    }

    /**
     * Finds the variable's segment in the Path pattern the route matched; when that pattern cannot
     * tell (none recorded, or the variable after a {@code **}), any request naming the item holds.
     */
    @Override
    public boolean holdsLastSegment(ServerWebExchange exchange) {
      if (item(exchange) == null) {
        return false;
      }
      String pattern =
          exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_PREDICATE_MATCHED_PATH_ATTR);
      int segment = pattern == null ? -1 : PathPatterns.segmentOf(pattern, name);
      int last = PathPatterns.segments(exchange.getRequest().getPath().pathWithinApplication()) - 1;
      return segment < 0 || segment >= last;
    }
  }

  /** A query parameter, read from the raw query. */
  record QueryParameter(String name) implements ItemSource {
    @Override
    public boolean readsParameters() {
      return true;
    }

    @Override
    public String item(ServerWebExchange exchange) {
      String query = exchange.getRequest().getURI().getRawQuery();
      if (query == null) {
        return null;
      }
      String value = null;
      int start = 0;
      while (start <= query.length()) {
        // Some frameworks split on ';' as well as '&': read it as they do.
        int end = start;
        while (end < query.length() && query.charAt(end) != '&' && query.charAt(end) != ';') {
          end++;
        }
        int nameEnd = start;
        while (nameEnd < end && query.charAt(nameEnd) != '=') {
          nameEnd++;
        }
        String rawName = query.substring(start, nameEnd);
        if (names(rawName)) {
          String rawValue = nameEnd == end ? "" : query.substring(nameEnd + 1, end);
          boolean plain = rawName.equals(name) && !isEncoded(rawValue);
          value = value == null && plain ? rawValue : "";
        }
        start = end + 1;
      }
      return value;
    }

    /**
     * Whether a raw parameter name is this one, or looks like it to some framework: decoded, in
     * another case, with a bracketed suffix ({@code id[]}, {@code id[0]}).
     */
    private boolean names(String rawName) {
      if (rawName.equals(name)) {
        return true;
      }
      String decoded = rawName;
      if (isEncoded(rawName)) {
        try {
          decoded = URLDecoder.decode(rawName, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
          return false;
        }
      }
      int bracket = decoded.indexOf('[');
      String base = bracket > 0 && decoded.endsWith("]") ? decoded.substring(0, bracket) : decoded;
      return base.equalsIgnoreCase(name);
    }

    /** A {@code %} escape, or a {@code +}, which a query's decoder reads as a space. */
    private static boolean isEncoded(String raw) {
      return raw.indexOf('%') >= 0 || raw.indexOf('+') >= 0;
    }
  }

  /** A request header. */
  record Header(String name) implements ItemSource {
    @Override
    public boolean readsParameters() {
      return true;
    }

    @Override
    public String item(ServerWebExchange exchange) {
      HttpHeaders headers = exchange.getRequest().getHeaders();
      List<String> values = headers.get(name);
      String spelling = alike(name);
      boolean lookalike =
          headers.headerNames().stream()
              .anyMatch(other -> !other.equalsIgnoreCase(name) && alike(other).equals(spelling));
      if (values == null || values.isEmpty()) {
        return lookalike ? "" : null;
      }
      String value = values.get(0);
      return values.size() > 1 || value.indexOf('%') >= 0 || lookalike ? "" : value;
    }

    /** A header name as servers that take {@code _} for {@code -} read it. */
    private static String alike(String header) {
      return header.replace('_', '-').toLowerCase(java.util.Locale.ROOT);
    }
  }
}
