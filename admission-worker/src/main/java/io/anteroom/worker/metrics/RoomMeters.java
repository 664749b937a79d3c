package io.anteroom.worker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gauge of each configured room's running sessions on all of its items, {@code
 * anteroom.room.active.users} tagged {@code room}: what {@code total-active-users} limits. Read
 * from Redis, so all workers show the same value: aggregate with {@code max}.
 */
public final class RoomMeters {

  private final Map<String, AtomicLong> active = new ConcurrentHashMap<>();

  public RoomMeters(Set<String> rooms, MeterRegistry meters) {
    for (String room : rooms) {
      AtomicLong value = new AtomicLong();
      active.put(room, value);
      Gauge.builder("anteroom.room.active.users", value, AtomicLong::get)
          .description("Running sessions on all of the room's items, its queues on or off")
          .tag("room", room)
          .register(meters);
    }
  }

  /** Records the room's running sessions as last read. */
  public void observe(String room, long sessions) {
    AtomicLong value = active.get(room);
    if (value != null) {
      value.set(sessions);
    }
  }
}
