package io.anteroom.gateway.identity;

import java.util.regex.Pattern;
import org.springframework.http.HttpCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Where a room reads a visitor's identity from, as its {@code identity} setting names it: {@code
 * header:<name>} or {@code cookie:<name>}. The value must come from a trusted source: a header that
 * a proxy in front of the gateway sets (and strips from clients), or a cookie the site's login
 * sets.
 */
public record IdentitySource(Kind kind, String name) {

  /** Where the identity is read from. */
  public enum Kind {
    HEADER,
    COOKIE
  }

  /** Longest identity value taken; a longer one is ignored as if absent. */
  static final int MAX_LENGTH = 512;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}");

  /**
   * @param room the room, for messages
   * @param setting {@code header:<name>} or {@code cookie:<name>}
   * @throws IllegalArgumentException naming the setting when it is neither
   */
  public static IdentitySource parse(String room, String setting) {
    int colon = setting.indexOf(':');
    String kind = colon < 0 ? "" : setting.substring(0, colon);
    String name = colon < 0 ? "" : setting.substring(colon + 1);
    if (!NAME.matcher(name).matches() || !(kind.equals("header") || kind.equals("cookie"))) {
      throw new IllegalArgumentException(
          "anteroom.rooms."
              + room
              + ".identity: must be header:<name> or cookie:<name>; was '"
              + setting
              + "'");
    }
    return new IdentitySource(kind.equals("header") ? Kind.HEADER : Kind.COOKIE, name);
  }

  /** The identity the request carries, or null when it carries none (or an unusable one). */
  public String read(ServerHttpRequest request) {
    String value =
        switch (kind) {
          case HEADER -> request.getHeaders().getFirst(name);
          case COOKIE -> {
            HttpCookie cookie = request.getCookies().getFirst(name);
            yield cookie == null ? null : cookie.getValue();
          }
        };
    if (value == null) {
      return null;
    }
    String trimmed = value.trim();
    return trimmed.isEmpty() || trimmed.length() > MAX_LENGTH ? null : trimmed;
  }
}
