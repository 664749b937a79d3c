package io.anteroom.gateway.scale;

import io.anteroom.gateway.scale.RedisMonitor.Command;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One queue's line replayed from what its scripts did in Redis, command by command: who joined the
 * line and with which sequence number, who was moved to running and when by the token bucket's
 * clock, who left running. Each admission is checked against the line as it stood at that moment:
 * the one admitted must be the earliest arrival still waiting (or the line must be empty, for a
 * visitor let straight in on arrival).
 *
 * <p>An admission's time is the bucket's refill time after the script that made it: the later of
 * the refill time stored before and the {@code now} the script was given ({@code bucket.lua}). The
 * bucket only ever holds {@code burst} tokens and gains {@code rate} per second of refill time, so
 * counted in that clock, no window {@code W} can hold more than {@code rate·W + burst} admissions,
 * whatever the number of workers and gateways and however late their calls arrive.
 */
final class AdmissionReplay {

  private static final Set<String> FLAGS = Set.of("NX", "XX", "GT", "LT", "CH", "INCR");

  private final String waiting;
  private final String running;
  private final String finished;
  private final String state;

  // In Redis's order: by score, then by member (rejoining visitors can share a score).
  private final TreeSet<Place> line = new TreeSet<>();
  private final Map<String, Place> places = new HashMap<>();
  private final Map<String, Double> joinedWith = new HashMap<>();
  private final Set<String> sessions = new HashSet<>();
  private final Set<String> initial = new HashSet<>();
  private final List<Admission> admissions = new ArrayList<>();
  private final Set<String> everAdmitted = new HashSet<>();
  private final List<String> disorder = new ArrayList<>();
  private final Map<String, Integer> markers = new HashMap<>();
  private final Map<String, Integer> waitingAtMarkers = new HashMap<>();
  private long refill;
  private int maxRunning;
  private int abandoned;
  private int arrivals;

  /** One visitor moved to running, at {@code bucketMs} of the bucket's clock. */
  record Admission(long bucketMs, String visitor, boolean fromLine) {}

  /** A place in line. */
  record Place(double score, String member) implements Comparable<Place> {
    /** The score as Redis would print it: a whole number without a fraction. */
    String shown() {
      return score == Math.rint(score) ? Long.toString((long) score) : Double.toString(score);
    }

    @Override
    public int compareTo(Place other) {
      int byScore = Double.compare(score, other.score);
      return byScore != 0 ? byScore : member.compareTo(other.member);
    }
  }

  /**
   * @param keyPrefix the queue's keys without the part name, e.g. {@code wr:{shop}:1:}
   */
  AdmissionReplay(String keyPrefix) {
    this.waiting = keyPrefix + "waiting";
    this.running = keyPrefix + "running";
    this.finished = keyPrefix + "finished";
    this.state = keyPrefix + "state";
  }

  /**
   * A replay that starts from the line as a server held it when its stream was first watched (a
   * replica about to be promoted): {@code waiting} by score, {@code running}, and the bucket's
   * refill time.
   */
  static AdmissionReplay startingFrom(
      String keyPrefix, Map<String, Double> waiting, Collection<String> running, long refill) {
    AdmissionReplay replay = new AdmissionReplay(keyPrefix);
    waiting.forEach(
        (member, score) -> {
          Place place = new Place(score, member);
          replay.line.add(place);
          replay.places.put(member, place);
          replay.joinedWith.put(member, score);
          replay.initial.add(member);
        });
    replay.sessions.addAll(running);
    replay.maxRunning = running.size();
    replay.refill = refill;
    return replay;
  }

  /** Replays {@code commands} on top of what this replay holds. */
  AdmissionReplay then(List<Command> commands) {
    commands.forEach(this::apply);
    return this;
  }

  /** Those running now. */
  Set<String> sessions() {
    return Set.copyOf(sessions);
  }

  /** Replays every command in order; {@code ECHO <name>} from any client marks a moment. */
  static AdmissionReplay of(String keyPrefix, List<Command> commands) {
    AdmissionReplay replay = new AdmissionReplay(keyPrefix);
    commands.forEach(replay::apply);
    return replay;
  }

  void apply(Command c) {
    if (c.name().equals("ECHO") && c.size() == 2) {
      markers.put(c.arg(1), admissions.size());
      waitingAtMarkers.put(c.arg(1), line.size());
      return;
    }
    if (!c.source().equals("lua") || c.size() < 2) {
      return;
    }
    String key = c.arg(1);
    switch (c.name()) {
      case "ZADD" -> zadd(key, c);
      case "ZREM" -> zrem(key, c);
      case "UNLINK", "DEL" -> c.words().subList(1, c.size()).forEach(this::delete);
      case "HSET" -> hset(key, c);
      default -> {}
    }
  }

  private void zadd(String key, Command c) {
    int first = 2;
    boolean onlyExisting = false;
    boolean onlyNew = false;
    while (first < c.size() && FLAGS.contains(c.arg(first).toUpperCase(Locale.ROOT))) {
      onlyExisting |= c.arg(first).equalsIgnoreCase("XX");
      onlyNew |= c.arg(first).equalsIgnoreCase("NX");
      first++;
    }
    // Admissions add to running with no flag, or with NX alone (a newcomer let in on arrival);
    // other flags mark activity updates and registrations.
    boolean admits = first == 2 || (first == 3 && onlyNew);
    for (int i = first; i + 1 < c.size(); i += 2) {
      double score = Double.parseDouble(c.arg(i));
      String member = c.arg(i + 1);
      if (key.equals(waiting)) {
        if (places.containsKey(member)) {
          continue; // NX: the place is kept
        }
        arrivals++;
        Place place = new Place(score, member);
        line.add(place);
        places.put(member, place);
        joinedWith.put(member, score);
      } else if (key.equals(running) && !onlyExisting) {
        if (admits && !(onlyNew && sessions.contains(member))) {
          admit(member, (long) score);
        }
        sessions.add(member);
        maxRunning = Math.max(maxRunning, sessions.size());
      } else if (key.equals(finished) && places.containsKey(member)) {
        abandoned++;
        leaveLine(member);
      }
    }
  }

  private void admit(String visitor, long now) {
    refill = Math.max(refill, now);
    Place place = places.get(visitor);
    if (place == null) {
      if (!line.isEmpty()) {
        disorder.add(visitor + " let straight in while " + line.size() + " waited");
      }
    } else if (!place.equals(line.first())) {
      disorder.add(
          visitor
              + " (place "
              + place.shown()
              + ") admitted before place "
              + line.first().shown()
              + " moved");
    }
    if (place != null) {
      leaveLine(visitor);
    }
    admissions.add(new Admission(refill, visitor, place != null));
    everAdmitted.add(visitor);
  }

  private void leaveLine(String visitor) {
    line.remove(places.remove(visitor));
  }

  private void zrem(String key, Command c) {
    for (String member : c.words().subList(2, c.size())) {
      if (key.equals(running)) {
        sessions.remove(member);
      } else if (key.equals(waiting) && places.containsKey(member)) {
        leaveLine(member);
      }
    }
  }

  private void delete(String key) {
    if (key.equals(waiting)) {
      line.clear();
      places.clear();
    } else if (key.equals(running)) {
      sessions.clear();
    }
  }

  private void hset(String key, Command c) {
    if (!key.equals(state)) {
      return;
    }
    for (int i = 2; i + 1 < c.size(); i += 2) {
      if (c.arg(i).equals("refill")) {
        refill = Math.max(refill, Long.parseLong(c.arg(i + 1)));
      }
    }
  }

  List<Admission> admissions() {
    return List.copyOf(admissions);
  }

  /** Admissions from the marker {@code from} (inclusive) to {@code to} (exclusive, null: end). */
  List<Admission> between(String from, String to) {
    int start = marker(from);
    int end = to == null ? admissions.size() : marker(to);
    return List.copyOf(admissions.subList(start, end));
  }

  private int marker(String name) {
    Integer at = markers.get(name);
    if (at == null) {
      throw new IllegalStateException("no marker " + name + " in the replay");
    }
    return at;
  }

  /** How many waited in line at the marker {@code name}. */
  int waitingAt(String name) {
    marker(name);
    return waitingAtMarkers.get(name);
  }

  boolean wasAdmitted(String visitor) {
    return everAdmitted.contains(visitor);
  }

  /** Admissions out of arrival order; empty when the order was kept. */
  List<String> disorder() {
    return List.copyOf(disorder);
  }

  int maxRunning() {
    return maxRunning;
  }

  int running() {
    return sessions.size();
  }

  int waiting() {
    return line.size();
  }

  /** Those in line now, in order. */
  List<String> inLine() {
    return line.stream().map(Place::member).toList();
  }

  /** Those in line when the replay started ({@link #startingFrom}). */
  Set<String> startingLine() {
    return Set.copyOf(initial);
  }

  /** Everyone who took a place in this line. */
  Set<String> joined() {
    return Set.copyOf(joinedWith.keySet());
  }

  /** The score a visitor joined the line with, or null for one never in line. */
  Double placeOf(String visitor) {
    return joinedWith.get(visitor);
  }

  int abandoned() {
    return abandoned;
  }

  int arrivals() {
    return arrivals;
  }
}
