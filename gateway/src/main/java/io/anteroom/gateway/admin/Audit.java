package io.anteroom.gateway.admin;

import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each change made through the admin API twice: one line on the logger {@value #LOGGER}, so
 * operators can route it to its own file or sink,
 *
 * <pre>
 * who=alice from=10.0.0.7 what=room-settings target=shop old={admit-per-second=4}
 *     new={admit-per-second=80}                                     (one line)
 * </pre>
 *
 * and one entry of the {@link RedisAuditTrail}, which every gateway shares and the API and page
 * show. The entry is written in the background: a Redis that is down or slow never holds up or
 * fails a change (the failure policy is switched while Redis is down), it costs that change its
 * entry in Redis, with a warning; the log line is always written.
 *
 * <p>Values reach the line already validated; control characters are replaced all the same, so no
 * value can forge a second line.
 */
final class Audit {

  static final String LOGGER = "anteroom.audit";

  /** How long an entry may take to reach Redis before it is given up. */
  static final Duration WRITE_TIMEOUT = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(LOGGER);
  private static final Logger problems = LoggerFactory.getLogger(Audit.class);

  private final RedisAuditTrail trail;
  private final Clock clock;
  private final ThrottledWarnings warnings;

  Audit(RedisAuditTrail trail, Clock clock) {
    this.trail = trail;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(problems, clock);
  }

  void record(Actor who, String what, String target, String old, String now) {
    AuditEntry entry =
        new AuditEntry(
            null,
            Instant.now(clock).toString(),
            clean(who.name()),
            clean(who.address()),
            what,
            clean(target),
            clean(old),
            clean(now));
    log.info(
        "who={} from={} what={} target={} old={} new={}",
        entry.who(),
        entry.from(),
        entry.what(),
        entry.target(),
        entry.old(),
        entry.now());
    trail
        .append(entry)
        .timeout(WRITE_TIMEOUT)
        .subscribe(
            null,
            error ->
                warnings.warn(
                    "audit",
                    "Audit trail: the entry what={} target={} could not be written to Redis ({});"
                        + " it is in the {} log only",
                    entry.what(),
                    entry.target(),
                    error.toString(),
                    LOGGER));
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
