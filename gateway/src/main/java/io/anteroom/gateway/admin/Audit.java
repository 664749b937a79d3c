package io.anteroom.gateway.admin;

import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per change made through the admin API, on the logger {@value #LOGGER}, so operators can
 * route it to its own file or sink:
 *
 * <pre>
 * who=alice from=10.0.0.7 what=room-settings target=shop old={admit-per-second=4}
 *     new={admit-per-second=80}                                     (one line)
 * </pre>
 *
 * Values reach the line already validated; control characters are replaced all the same, so no
 * value can forge a second line.
 */
final class Audit {

  static final String LOGGER = "anteroom.audit";

  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  void record(Actor who, String what, String target, String old, String now) {
    log.info(
        "who={} from={} what={} target={} old={} new={}",
        clean(who.name()),
        clean(who.address()),
        what,
        clean(target),
        clean(old),
        clean(now));
  }

  /** {@code {name=value, …}} in the map's order. */
  static String values(Map<String, String> values) {
    return values.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  private static String clean(String text) {
    StringBuilder clean = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      clean.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return clean.toString();
  }
}
