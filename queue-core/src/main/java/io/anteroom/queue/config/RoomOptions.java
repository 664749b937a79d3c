package io.anteroom.queue.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * A room's settings that are not policy and cannot be changed live, written beside its policy
 * values under {@code anteroom.rooms.<room>} and read by the gateway. A value not set is null, a
 * list not set is empty; each reader checks what it reads and names the property when it refuses a
 * value. Lists are comma-separated or YAML lists.
 *
 * @param item where a request's item id comes from: {@code path:<variable>}, {@code query:<name>},
 *     {@code header:<name>}, or {@code room} for one line per room; default {@code room}
 * @param itemPattern a regular expression every item id must match; default {@code
 *     [A-Za-z0-9_-]{1,64}}
 * @param itemCase {@code sensitive} or {@code insensitive}; default {@code sensitive}
 * @param itemFormat {@code text} or {@code integer}; default {@code text}
 * @param itemRefusal the status of a refused item id, {@code 404} or {@code 400}; default {@code
 *     404}
 * @param identity where a visitor's identity comes from, {@code header:<name>} or {@code
 *     cookie:<name>}; default none: each browser is a visitor
 * @param bypassPaths path patterns whose GET and HEAD requests pass without a queue; default none
 * @param bypassExtensions file extensions that pass, besides {@code
 *     anteroom.gateway.static-extensions}; default none
 * @param bypassNetworks client addresses or CIDR ranges that pass; default none
 * @param bypassSecret the {@code Anteroom-Bypass} header value that lets a request pass; default
 *     none
 * @param language the one language of the room's visitor pages, {@code en}, {@code ko} or one its
 *     {@code templates} add; default the visitor's {@code Accept-Language}
 * @param template the path of the room's own waiting page template; default the built-in one
 * @param templates a directory of the room's own pages and wording ({@code waiting.html}, {@code
 *     paused.html}, {@code closed.html}, {@code unavailable.html}, {@code challenge.html}, {@code
 *     limited.html}, {@code messages_<language>.properties}), each optional; default none
 */
public record RoomOptions(
    String item,
    String itemPattern,
    String itemCase,
    String itemFormat,
    String itemRefusal,
    String identity,
    List<String> bypassPaths,
    List<String> bypassExtensions,
    List<String> bypassNetworks,
    String bypassSecret,
    String language,
    String template,
    String templates) {

  /** The options' names as written under a room: {@code item}, {@code item-pattern}, … */
  public static final Set<String> NAMES =
      Arrays.stream(RoomOptions.class.getRecordComponents())
          .map(component -> DataObjectPropertyName.toDashedForm(component.getName()))
          .collect(Collectors.toUnmodifiableSet());

  public RoomOptions {
    bypassPaths = List.copyOf(bypassPaths);
    bypassExtensions = List.copyOf(bypassExtensions);
    bypassNetworks = List.copyOf(bypassNetworks);
  }

  /** The options among a room's settings; its policy values are left out. */
  public static RoomOptions of(Map<String, String> settings) {
    return new RoomOptions(
        settings.get("item"),
        settings.get("item-pattern"),
        settings.get("item-case"),
        settings.get("item-format"),
        settings.get("item-refusal"),
        settings.get("identity"),
        list(settings, "bypass-paths"),
        list(settings, "bypass-extensions"),
        list(settings, "bypass-networks"),
        settings.get("bypass-secret"),
        settings.get("language"),
        settings.get("template"),
        settings.get("templates"));
  }

  /**
   * Whether a room's setting is an option, or an entry of a list option ({@code
   * bypass-networks[0]}), rather than a policy value.
   */
  static boolean isOption(String key) {
    int end = key.length();
    for (char stop : new char[] {'[', '.'}) {
      int at = key.indexOf(stop);
      if (at >= 0) {
        end = Math.min(end, at);
      }
    }
    return NAMES.contains(key.substring(0, end));
  }

  /**
   * A list option's values: a comma-separated value, or the entries of a YAML list (bound as {@code
   * option[0]} or {@code option.0}, …), trimmed, blanks dropped.
   */
  private static List<String> list(Map<String, String> settings, String option) {
    List<String> values = new ArrayList<>();
    new TreeMap<>(settings)
        .forEach(
            (key, value) -> {
              if (value != null
                  && (key.equals(option)
                      || key.startsWith(option + ".")
                      || key.startsWith(option + "["))) {
                for (String part : value.split(",")) {
                  if (!part.isBlank()) {
                    values.add(part.trim());
                  }
                }
              }
            });
    return values;
  }
}
