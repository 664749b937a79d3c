package io.anteroom.queue.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How a room admits people: the values the queue scripts need. Built by {@link PolicyParser} from
 * YAML and live overrides; every value is checked here, so an invalid policy cannot exist. Problems
 * are reported all at once as an {@link InvalidPolicyException}.
 *
 * @param admitPerSecond {@code admit-per-second}: people let in per second, decimals allowed;
 *     default 10
 * @param admitBurst {@code admit-burst}: how much unused admission time may accumulate, as a
 *     duration of the rate; default 1s (a full second's worth)
 * @param maxActive {@code max-active}: most sessions running at once; default 1000
 * @param sessionDuration {@code session-duration}: an admitted session ends after this long without
 *     activity; default 10m
 * @param abandonAfter {@code abandon-after}: a waiting visitor who has not polled for this long
 *     gives up the place; default 2m
 * @param admitBatch {@code admit-batch}: most visitors one admission call moves (the worker makes
 *     several calls per tick when needed); default 100, which keeps one call under a millisecond
 * @param finishedRetention {@code finished-retention}: how long finished visitors are kept for
 *     status and counts; default 1h
 */
public record RoomPolicy(
    double admitPerSecond,
    Duration admitBurst,
    int maxActive,
    Duration sessionDuration,
    Duration abandonAfter,
    int admitBatch,
    Duration finishedRetention) {

  /** The built-in defaults, under any YAML defaults and room values. */
  public static final RoomPolicy DEFAULTS =
      new RoomPolicy(
          10,
          Duration.ofSeconds(1),
          1000,
          Duration.ofMinutes(10),
          Duration.ofMinutes(2),
          100,
          Duration.ofHours(1));

  /** Most visitors one admission call may move; keeps a script call short. */
  static final int MAX_ADMIT_BATCH = 5000;

  public RoomPolicy {
    List<String> problems = new ArrayList<>();
    check(
        problems,
        admitPerSecond > 0 && admitPerSecond <= 1_000_000,
        PolicyProperty.ADMIT_PER_SECOND,
        "must be above 0 and at most 1000000");
    checkPositive(problems, admitBurst, PolicyProperty.ADMIT_BURST);
    check(problems, maxActive >= 1, PolicyProperty.MAX_ACTIVE, "must be at least 1");
    checkPositive(problems, sessionDuration, PolicyProperty.SESSION_DURATION);
    checkPositive(problems, abandonAfter, PolicyProperty.ABANDON_AFTER);
    check(
        problems,
        admitBatch >= 1 && admitBatch <= MAX_ADMIT_BATCH,
        PolicyProperty.ADMIT_BATCH,
        "must be between 1 and " + MAX_ADMIT_BATCH);
    checkPositive(problems, finishedRetention, PolicyProperty.FINISHED_RETENTION);
    if (!problems.isEmpty()) {
      throw new InvalidPolicyException("room policy", problems);
    }
  }

  /** Token bucket size: the burst window's worth of the rate, at least one visitor. */
  public double burstTokens() {
    return Math.max(1, admitPerSecond * admitBurst.toMillis() / 1000.0);
  }

  private static void checkPositive(
      List<String> problems, Duration value, PolicyProperty property) {
    check(
        problems,
        value != null && !value.isNegative() && !value.isZero(),
        property,
        "must be a positive duration");
  }

  private static void check(
      List<String> problems, boolean valid, PolicyProperty property, String message) {
    if (!valid) {
      problems.add(property.key() + ": " + message);
    }
  }
}
