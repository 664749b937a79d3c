package io.anteroom.worker.metrics;

import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.history.HistorySample;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gauges of each configured room as a whole, tagged {@code room}, next to its room-wide limits:
 * {@code anteroom.room.active.users}, its running sessions on all of its items (what {@code
 * total-active-users} limits); {@code anteroom.room.new.users.per.minute}, the sessions it started
 * per minute as measured in Redis (what {@code new-users-per-minute} limits); and {@code
 * anteroom.room.waiting}, the people in line in all of its active queues. Read from Redis, so all
 * workers show the same values: aggregate with {@code max}.
 */
public final class RoomMeters {

  /** The last reading of one room. */
  private static final class Observed {
    volatile double activeUsers;
    volatile double newUsersPerMinute;
    volatile double waiting;
  }

  private final Map<String, Observed> rooms = new ConcurrentHashMap<>();

  public RoomMeters(Set<String> rooms, MeterRegistry meters) {
    for (String room : rooms) {
      Observed seen = new Observed();
      this.rooms.put(room, seen);
      Gauge.builder("anteroom.room.active.users", seen, s -> s.activeUsers)
          .description("Running sessions on all of the room's items, its queues on or off")
          .tag("room", room)
          .register(meters);
      Gauge.builder("anteroom.room.new.users.per.minute", seen, s -> s.newUsersPerMinute)
          .description("Sessions the room started per minute, measured in Redis (0 until known)")
          .tag("room", room)
          .register(meters);
      Gauge.builder("anteroom.room.waiting", seen, s -> s.waiting)
          .description("People in line in all of the room's active queues")
          .tag("room", room)
          .register(meters);
    }
  }

  /** Records the room's running sessions and measured new users as its last call read them. */
  public void observe(String room, RoomAdmitResult result) {
    Observed seen = rooms.get(room);
    if (seen != null) {
      seen.activeUsers = result.activeSessions();
      seen.newUsersPerMinute = result.newUsersPerMinute();
    }
  }

  /**
   * Records each room's people in line from the totals of its lines this tick ({@link
   * LineMeters#publish}), which count every active queue: those that admit nobody too, whose lines
   * a room's admission call does not read.
   */
  public void observeLines(Map<String, HistorySample> totals) {
    totals.forEach(
        (room, sample) -> {
          Observed seen = rooms.get(room);
          if (seen != null) {
            seen.waiting = sample.waiting();
          }
        });
  }
}
