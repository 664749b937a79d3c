package io.anteroom.gateway.arrival;

import io.anteroom.queue.arrival.Arrival;
import java.util.ArrayList;
import java.util.List;

/**
 * Arrivals recorded since the last drain, in memory and bounded: once full, further arrivals are
 * refused until the next drain, so a slow or unreachable Redis costs a fixed amount of memory.
 *
 * <p>Thread-safe: an arrival costs an append under one lock the event-loop threads share, and only
 * newcomers of a room that records are appended at all.
 */
final class ArrivalBuffer {

  /** An arrival of {@code room}, with the share of newcomers the room recorded then. */
  record Entry(String room, double sample, Arrival arrival) {}

  private final int capacity;
  private final Object lock = new Object();
  private List<Entry> entries = new ArrayList<>();

  /**
   * @param capacity most arrivals held between two drains
   */
  ArrivalBuffer(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.capacity = capacity;
  }

  /** Adds {@code entry}; false when the buffer is full and it was not added. */
  boolean add(Entry entry) {
    synchronized (lock) {
      if (entries.size() >= capacity) {
        return false;
      }
      entries.add(entry);
      return true;
    }
  }

  /** The arrivals since the last drain, in the order they were added; starts afresh. */
  List<Entry> drain() {
    synchronized (lock) {
      List<Entry> taken = entries;
      entries = new ArrayList<>();
      return taken;
    }
  }
}
