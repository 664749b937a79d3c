package io.anteroom.gateway.scale;

import io.anteroom.gateway.scale.RedisMonitor.Command;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A room's active users replayed from what the scripts did in Redis, command by command: every
 * visitor who became an active user of the room (a member new to the room's sessions, one per
 * visitor whatever items they open), every one who left, and the room's token bucket's clock. The
 * number of active users is known after each command, so "at every step" means after every command
 * Redis ran.
 *
 * <p>An admission is a visitor new to the room's users, written by any add but one that only moves
 * existing members ({@code XX}); its item is the one whose running set last took the visitor in.
 * Its time is the room's bucket's refill time after the script that made it, as in {@link
 * AdmissionReplay}: counted in that clock, no window {@code W} can hold more than {@code rate·W +
 * burst} admissions.
 */
final class RoomReplay {

  private static final Set<String> FLAGS = Set.of("NX", "XX", "GT", "LT", "CH", "INCR");

  private final String sessionsKey;
  private final String budgetKey;
  private final String runningPrefix;
  private final Map<String, Double> sessions = new HashMap<>();
  private final Map<String, String> lastItem = new HashMap<>();
  private final List<Admission> admissions = new ArrayList<>();
  private final Map<String, Integer> markers = new HashMap<>();
  private long refill;
  private int maxSessions;

  /** One visitor new to the room, at {@code bucketMs} of the room's bucket's clock. */
  record Admission(long bucketMs, String item, String visitor) {}

  RoomReplay(String sessionsKey, String budgetKey) {
    this.sessionsKey = sessionsKey;
    this.budgetKey = budgetKey;
    // wr:{shop}:sessions -> wr:{shop}: , the prefix of the room's queue keys
    this.runningPrefix = sessionsKey.substring(0, sessionsKey.length() - "sessions".length());
  }

  static RoomReplay of(String sessionsKey, String budgetKey, List<Command> commands) {
    RoomReplay replay = new RoomReplay(sessionsKey, budgetKey);
    commands.forEach(replay::apply);
    return replay;
  }

  void apply(Command c) {
    if (c.name().equals("ECHO") && c.size() == 2) {
      markers.put(c.arg(1), admissions.size());
      return;
    }
    if (!c.source().equals("lua") || c.size() < 2) {
      return;
    }
    String key = c.arg(1);
    if (key.equals(budgetKey) && c.name().equals("HSET")) {
      for (int i = 2; i + 1 < c.size(); i += 2) {
        if (c.arg(i).equals("refill")) {
          refill = Math.max(refill, Long.parseLong(c.arg(i + 1)));
        }
      }
      return;
    }
    if (key.startsWith(runningPrefix) && key.endsWith(":running") && c.name().equals("ZADD")) {
      String item = key.substring(runningPrefix.length(), key.length() - ":running".length());
      int first = firstPair(c);
      if (first > 0) {
        for (int i = first; i + 1 < c.size(); i += 2) {
          lastItem.put(c.arg(i + 1), item);
        }
      }
      return;
    }
    if (!key.equals(sessionsKey)) {
      return;
    }
    switch (c.name()) {
      case "ZADD" -> zadd(c);
      case "ZREM" -> c.words().subList(2, c.size()).forEach(sessions::remove);
      case "ZREMRANGEBYSCORE" -> removeUpTo(c.arg(2), c.arg(3));
      case "ZREMRANGEBYRANK" -> removeLowest(c.arg(2), c.arg(3));
      case "DEL", "UNLINK" -> sessions.clear();
      default -> {}
    }
    maxSessions = Math.max(maxSessions, sessions.size());
  }

  private void zadd(Command c) {
    int first = Math.abs(firstPair(c));
    boolean onlyExisting = firstPair(c) < 0;
    for (int i = first; i + 1 < c.size(); i += 2) {
      double score = Double.parseDouble(c.arg(i));
      String member = c.arg(i + 1);
      Double before = sessions.get(member);
      if (onlyExisting && before == null) {
        continue;
      }
      if (before == null) {
        refill = Math.max(refill, (long) score);
        admissions.add(new Admission(refill, lastItem.getOrDefault(member, "?"), member));
      }
      sessions.put(member, before == null ? score : Math.max(before, score));
    }
  }

  /**
   * The index of a ZADD's first score, past its flags; negative when {@code XX} makes it move only
   * existing members.
   */
  private static int firstPair(Command c) {
    int first = 2;
    boolean onlyExisting = false;
    while (first < c.size() && FLAGS.contains(c.arg(first).toUpperCase(Locale.ROOT))) {
      onlyExisting |= c.arg(first).equalsIgnoreCase("XX");
      first++;
    }
    return onlyExisting ? -first : first;
  }

  /** ZREMRANGEBYSCORE as the scripts send it: from {@code -inf} to a score, both included. */
  private void removeUpTo(String min, String max) {
    if (!min.equals("-inf")) {
      throw new IllegalStateException("unexpected ZREMRANGEBYSCORE from " + min);
    }
    double limit = Double.parseDouble(max);
    sessions.values().removeIf(score -> score <= limit);
  }

  /**
   * ZREMRANGEBYRANK as the scripts send it (trim.lua): ranks 0 to {@code stop}, the lowest scores,
   * ties in member order as Redis keeps them.
   */
  private void removeLowest(String start, String stop) {
    if (!start.equals("0")) {
      throw new IllegalStateException("unexpected ZREMRANGEBYRANK from " + start);
    }
    sessions.entrySet().stream()
        .sorted(
            java.util.Map.Entry.<String, Double>comparingByValue()
                .thenComparing(java.util.Map.Entry.comparingByKey()))
        .limit(Long.parseLong(stop) + 1)
        .map(java.util.Map.Entry::getKey)
        .toList()
        .forEach(sessions::remove);
  }

  List<Admission> admissions() {
    return List.copyOf(admissions);
  }

  /** Admissions from the marker {@code from} (inclusive) to {@code to} (exclusive). */
  List<Admission> between(String from, String to) {
    return List.copyOf(admissions.subList(marker(from), marker(to)));
  }

  private int marker(String name) {
    Integer at = markers.get(name);
    if (at == null) {
      throw new IllegalStateException("no marker " + name + " in the replay");
    }
    return at;
  }

  /** The most active users the room held after any command. */
  int maxSessions() {
    return maxSessions;
  }

  /** The active users the room holds at the end. */
  int sessions() {
    return sessions.size();
  }
}
