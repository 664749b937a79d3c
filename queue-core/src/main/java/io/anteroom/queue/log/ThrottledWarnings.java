package io.anteroom.queue.log;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;

/**
 * Logs a warning at most once per interval for each subject (a room, a queue), so a Redis outage
 * writes a line every few seconds instead of thousands. Suppressed repeats are counted and reported
 * with the next line. The number of subjects tracked is bounded.
 */
public final class ThrottledWarnings {

  private static final int MAX_SUBJECTS = 1000;

  private final Logger log;
  private final Clock clock;
  private final long intervalMillis;
  private final Map<String, long[]> subjects = new ConcurrentHashMap<>();

  public ThrottledWarnings(Logger log, Clock clock, Duration interval) {
    this.log = log;
    this.clock = clock;
    this.intervalMillis = interval.toMillis();
  }

  /** The usual interval between two lines about one subject. */
  public static final Duration USUAL = Duration.ofSeconds(10);

  /** Warnings to {@code log}, one line per subject every {@link #USUAL} interval at most. */
  public static ThrottledWarnings of(Logger log, Clock clock) {
    return new ThrottledWarnings(log, clock, USUAL);
  }

  /**
   * Logs {@code format} with {@code args} (SLF4J placeholders) unless {@code subject} was logged
   * within the interval.
   */
  public void warn(String subject, String format, Object... args) {
    long now = clock.millis();
    if (subjects.size() >= MAX_SUBJECTS && !subjects.containsKey(subject)) {
      subjects.clear();
    }
    long[] state = subjects.computeIfAbsent(subject, s -> new long[] {Long.MIN_VALUE, 0});
    long suppressed;
    synchronized (state) {
      if (state[0] != Long.MIN_VALUE && now - state[0] < intervalMillis) {
        state[1]++;
        return;
      }
      suppressed = state[1];
      state[0] = now;
      state[1] = 0;
    }
    if (suppressed > 0) {
      log.warn(format + " ({} similar warnings suppressed)", append(args, suppressed));
    } else {
      log.warn(format, args);
    }
  }

  private static Object[] append(Object[] args, Object last) {
    Object[] all = new Object[args.length + 1];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = last;
    return all;
  }
}
