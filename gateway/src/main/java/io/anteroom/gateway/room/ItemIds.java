package io.anteroom.gateway.room;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.RoomOptions;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What a room's item ids look like, so every spelling an origin reads as the same item waits in one
 * line and every other spelling is refused, never forwarded. The room options, none of them live:
 *
 * <ul>
 *   <li>{@code item}: where the id comes from ({@link ItemSource}); default {@code room};
 *   <li>{@code item-format}: {@code text} (default) keeps the id as it is; {@code integer} accepts
 *       ASCII digits with an optional sign and maps them to the decimal number ({@code 001}, {@code
 *       +1} → {@code 1}; {@code -0} → {@code 0}), refusing anything else and anything outside a
 *       signed 64-bit integer;
 *   <li>{@code item-case}: {@code sensitive} (default) or {@code insensitive}, which lower-cases
 *       the id;
 *   <li>{@code item-pattern}: a regular expression the whole id must match once brought to that
 *       form; default {@value #DEFAULT_PATTERN};
 *   <li>{@code item-refusal}: the status of a refused id, {@code 404} (default) or {@code 400}.
 * </ul>
 */
public final class ItemIds {

  /** Letters, digits, {@code -} and {@code _}: no dot, so {@code 1.json} is no spelling of 1. */
  public static final String DEFAULT_PATTERN = "[A-Za-z0-9_-]{1,64}";

  /** Longest raw id an integer room reads, leading zeros included. */
  static final int MAX_INTEGER_LENGTH = 64;

  private static final byte[] BODY =
      "{\"error\":\"invalid-item\"}".getBytes(StandardCharsets.UTF_8);

  private final ItemSource source;
  private final Pattern pattern;
  private final boolean integer;
  private final boolean caseInsensitive;
  private final HttpStatus refusal;

  /** A raw id and its canonical form (null: refused). */
  private record Last(String raw, String canonical) {}

  /**
   * The id read last: during a rush most requests name the same item, and reading it again costs a
   * regular expression. Any thread may replace it; each value is right for its own raw id.
   */
  private volatile Last last;

  ItemIds(
      ItemSource source,
      Pattern pattern,
      boolean integer,
      boolean caseInsensitive,
      HttpStatus refusal) {
    this.source = source;
    this.pattern = pattern;
    this.integer = integer;
    this.caseInsensitive = caseInsensitive;
    this.refusal = refusal;
  }

  /**
   * Reads a room's item options.
   *
   * @throws IllegalArgumentException naming the property when a value is not understood
   */
  public static ItemIds parse(String room, RoomOptions options) {
    String prefix = "anteroom.rooms." + room + ".";
    ItemSource source = ItemSource.parse(room, options.item());
    boolean integer = isOther(prefix + "item-format", options.itemFormat(), "text", "integer");
    boolean caseInsensitive =
        isOther(prefix + "item-case", options.itemCase(), "sensitive", "insensitive");
    boolean badRequest = isOther(prefix + "item-refusal", options.itemRefusal(), "404", "400");
    String regex = options.itemPattern() == null ? DEFAULT_PATTERN : options.itemPattern();
    return new ItemIds(
        source,
        pattern(prefix + "item-pattern", regex),
        integer,
        caseInsensitive,
        badRequest ? HttpStatus.BAD_REQUEST : HttpStatus.NOT_FOUND);
  }

  /** Where the room reads a request's item. */
  public ItemSource source() {
    return source;
  }

  /**
   * The canonical item id of the request, {@link QueueId#ROOM_WIDE} when it names none, or null
   * when the room refuses it.
   */
  public String of(ServerWebExchange exchange) {
    String raw = source.item(exchange);
    if (raw == null) {
      return QueueId.ROOM_WIDE;
    }
    Last seen = last;
    if (seen != null && seen.raw().equals(raw)) {
      return seen.canonical();
    }
    String canonical = canonical(raw);
    last = new Last(raw, canonical);
    return canonical;
  }

  /** The one spelling of {@code raw}, or null when it is no id of this room. */
  public String canonical(String raw) {
    String id = integer ? integer(raw) : raw;
    if (id == null) {
      return null;
    }
    if (caseInsensitive) {
      id = id.toLowerCase(Locale.ROOT);
    }
    return pattern.matcher(id).matches() ? id : null;
  }

  /** Answers a refused id: the room's status and a small JSON body, never cached. */
  public Mono<Void> refuse(ServerWebExchange exchange) {
    ServerHttpResponse response = exchange.getResponse();
    response.setStatusCode(refusal);
    response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
    response.getHeaders().setCacheControl(CacheControl.noStore());
    return response.writeWith(Mono.just(response.bufferFactory().wrap(BODY)));
  }

  /** ASCII digits after an optional sign, as the decimal of a signed 64-bit integer; or null. */
  private static String integer(String raw) {
    int length = raw.length();
    int start = length > 0 && (raw.charAt(0) == '+' || raw.charAt(0) == '-') ? 1 : 0;
    if (start == length || length > MAX_INTEGER_LENGTH) {
      return null;
    }
    for (int i = start; i < length; i++) {
      char c = raw.charAt(i);
      // Not Character.isDigit: full-width and other scripts' digits are refused, not read.
      if (c < '0' || c > '9') {
        return null;
      }
    }
    try {
      return Long.toString(Long.parseLong(raw));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether {@code value} is {@code other} rather than {@code byDefault}, which null means. */
  private static boolean isOther(String property, String value, String byDefault, String other) {
    String chosen = value == null ? byDefault : value.trim();
    if (!chosen.equals(byDefault) && !chosen.equals(other)) {
      throw new IllegalArgumentException(
          property + ": must be " + byDefault + " or " + other + ", was '" + value + "'");
    }
    return chosen.equals(other);
  }

  private static Pattern pattern(String property, String regex) {
    if (regex.isBlank()) {
      throw new IllegalArgumentException(property + ": must not be blank");
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          property + ": '" + regex + "' is not a regular expression: " + e.getDescription(), e);
    }
  }
}
