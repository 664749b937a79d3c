package io.anteroom.guard;

import java.net.URI;
import java.util.List;

/**
 * Which requests a guard checks and how it answers the refused ones; checked once when built.
 *
 * @param room the room of the gateway's {@code WaitingRoom} filter for these paths
 * @param paths the protected paths ({@link GuardedPaths}), e.g. {@code /products/{id}} and {@code
 *     /products/{id}/**}; others pass through
 * @param itemHeader a request header holding the item instead, for paths without an item in braces;
 *     null or blank for none, and such paths are checked for the room-wide line ({@value
 *     PassVerifier#ROOM_WIDE})
 * @param itemFormat how the origin reads item ids, as the room's {@code item-format}; null for
 *     {@link ItemFormat#TEXT}
 * @param itemCase whether the origin tells item ids apart by case, as the room's {@code item-case};
 *     null for {@link ItemCase#SENSITIVE}
 * @param passHeader the header the gateway forwards the pass in ({@code
 *     anteroom.gateway.forward-pass-header}); null or blank for none
 * @param passCookie a cookie to read the pass from when the header is absent, for an origin that
 *     visitors reach with the gateway's cookie; null or blank for none
 * @param onRefusal how a refused request is answered
 * @param gatewayUrl the gateway's public address that {@link OnRefusal#REDIRECT} sends visitors to,
 *     e.g. {@code https://shop.example}; required for a redirect
 */
public record GuardSettings(
    String room,
    List<String> paths,
    String itemHeader,
    ItemFormat itemFormat,
    ItemCase itemCase,
    String passHeader,
    String passCookie,
    OnRefusal onRefusal,
    URI gatewayUrl) {

  /** The header name {@code ./anteroom demo} and the docs configure the gateway with. */
  public static final String DEFAULT_PASS_HEADER = "Anteroom-Pass";

  /**
   * How the origin reads an item id, so the guard checks the pass for the item the origin serves:
   * the room's {@code item-format}, which the gateway canonicalises ids with before it queues them.
   */
  public enum ItemFormat {
    /** The id as it is: {@code 01} and {@code 1} are two items. */
    TEXT,
    /**
     * ASCII digits with an optional sign, read as the decimal of a signed 64-bit integer ({@code
     * 01}, {@code +1} → {@code 1}); any other id ({@code 0x1}, {@code 1.0}, a space, other scripts'
     * digits) opens nothing.
     */
    INTEGER
  }

  /** Whether item ids differ by case: the room's {@code item-case}. */
  public enum ItemCase {
    /** {@code Sale} and {@code sale} are two items. */
    SENSITIVE,
    /** Ids are lower-cased: {@code Sale} is {@code sale}. */
    INSENSITIVE
  }

  public GuardSettings {
    if (room == null || room.isBlank()) {
      throw new IllegalArgumentException("anteroom.guard.room: required");
    }
    paths = List.copyOf(paths);
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("anteroom.guard.paths: at least one path to guard");
    }
    new GuardedPaths(paths);
    itemHeader = blankToNull(itemHeader);
    if (itemFormat == null) {
      itemFormat = ItemFormat.TEXT;
    }
    if (itemCase == null) {
      itemCase = ItemCase.SENSITIVE;
    }
    passHeader = blankToNull(passHeader);
    passCookie = blankToNull(passCookie);
    if (passHeader == null && passCookie == null) {
      throw new IllegalArgumentException(
          "anteroom.guard.pass-header or pass-cookie: the pass has to come from somewhere");
    }
    if (onRefusal == null) {
      onRefusal = OnRefusal.FORBIDDEN;
    }
    if (onRefusal == OnRefusal.REDIRECT
        && (gatewayUrl == null || !gatewayUrl.isAbsolute() || gatewayUrl.getHost() == null)) {
      throw new IllegalArgumentException(
          "anteroom.guard.gateway-url: an absolute http(s) address is required to redirect, was "
              + gatewayUrl);
    }
  }

  /** Settings for a room whose item ids are text, told apart by case. */
  public GuardSettings(
      String room,
      List<String> paths,
      String itemHeader,
      String passHeader,
      String passCookie,
      OnRefusal onRefusal,
      URI gatewayUrl) {
    this(room, paths, itemHeader, null, null, passHeader, passCookie, onRefusal, gatewayUrl);
  }

  /** The demo's and docs' settings: the pass in {@value #DEFAULT_PASS_HEADER}, refused with 403. */
  public static GuardSettings forbidding(String room, List<String> paths) {
    return new GuardSettings(
        room, paths, null, DEFAULT_PASS_HEADER, null, OnRefusal.FORBIDDEN, null);
  }

  /** These settings for a room whose item ids are read as {@code format} and {@code itemCase}. */
  public GuardSettings withItems(ItemFormat format, ItemCase itemCase) {
    return new GuardSettings(
        room, paths, itemHeader, format, itemCase, passHeader, passCookie, onRefusal, gatewayUrl);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
