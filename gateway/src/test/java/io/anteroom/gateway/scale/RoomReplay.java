package io.anteroom.gateway.scale;

import io.anteroom.gateway.scale.RedisMonitor.Command;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A room's sessions replayed from what the scripts did in Redis, command by command: every session
 * that started on any of its items (members {@code item|visitor} of the room's sessions), every
 * session that ended, and the room's token bucket's clock. The number of sessions is known after
 * each command, so "at every step" means after every command Redis ran.
 *
 * <p>An admission is a session new to the room written with no flag (room_admit.lua and enter.lua
 * write new sessions so; renewals and registrations write with {@code GT}). Its time is the room's
 * bucket's refill time after the script that made it, as in {@link AdmissionReplay}: counted in
 * that clock, no window {@code W} can hold more than {@code rate·W + burst} admissions.
 */
final class RoomReplay {

  private static final Set<String> FLAGS = Set.of("NX", "XX", "GT", "LT", "CH", "INCR");

  private final String sessionsKey;
  private final String budgetKey;
  private final Map<String, Double> sessions = new HashMap<>();
  private final List<Admission> admissions = new ArrayList<>();
  private final Map<String, Integer> markers = new HashMap<>();
  private long refill;
  private int maxSessions;

  /** One session started by an admission, at {@code bucketMs} of the room's bucket's clock. */
  record Admission(long bucketMs, String item, String visitor) {}

  RoomReplay(String sessionsKey, String budgetKey) {
    this.sessionsKey = sessionsKey;
    this.budgetKey = budgetKey;
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
    if (!key.equals(sessionsKey)) {
      return;
    }
    switch (c.name()) {
      case "ZADD" -> zadd(c);
      case "ZREM" -> c.words().subList(2, c.size()).forEach(sessions::remove);
      case "ZREMRANGEBYSCORE" -> removeUpTo(c.arg(2), c.arg(3));
      case "DEL", "UNLINK" -> sessions.clear();
      default -> {}
    }
    maxSessions = Math.max(maxSessions, sessions.size());
  }

  private void zadd(Command c) {
    int first = 2;
    boolean onlyExisting = false;
    while (first < c.size() && FLAGS.contains(c.arg(first).toUpperCase(Locale.ROOT))) {
      onlyExisting |= c.arg(first).equalsIgnoreCase("XX");
      first++;
    }
    boolean admits = first == 2;
    for (int i = first; i + 1 < c.size(); i += 2) {
      double score = Double.parseDouble(c.arg(i));
      String member = c.arg(i + 1);
      Double before = sessions.get(member);
      if (onlyExisting && before == null) {
        continue;
      }
      if (admits && before == null) {
        refill = Math.max(refill, (long) score);
        int bar = member.indexOf('|');
        admissions.add(new Admission(refill, member.substring(0, bar), member.substring(bar + 1)));
      }
      sessions.put(member, before == null ? score : Math.max(before, score));
    }
  }

  /** ZREMRANGEBYSCORE as the scripts send it: from {@code -inf} to a score, both included. */
  private void removeUpTo(String min, String max) {
    if (!min.equals("-inf")) {
      throw new IllegalStateException("unexpected ZREMRANGEBYSCORE from " + min);
    }
    double limit = Double.parseDouble(max);
    sessions.values().removeIf(score -> score <= limit);
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

  /** The most sessions the room held after any command. */
  int maxSessions() {
    return maxSessions;
  }

  /** The sessions the room holds at the end. */
  int sessions() {
    return sessions.size();
  }
}
