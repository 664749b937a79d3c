package io.anteroom.gateway.admin;

import io.anteroom.queue.arrival.RecordedArrival;
import io.anteroom.queue.arrival.RedisArrivals;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Puts arrivals read from the stream in id order back into time order while they are read. Every
 * entry lies within {@link RedisArrivals#LATEST} before the time of its id ({@code arrivals.lua}),
 * and ids only grow; so once an entry with id time {@code t} has been read, no entry still to come
 * arrived before {@code t - LATEST}, and those held that did can go out. Holds no more than that
 * span of arrivals.
 */
final class TimeOrder {

  private final long latest = RedisArrivals.LATEST.toMillis();
  private final PriorityQueue<RecordedArrival> held =
      new PriorityQueue<>(
          Comparator.comparingLong(RecordedArrival::at).thenComparing(RecordedArrival::idMillis));

  /**
   * Takes {@code arrivals}, read after those taken before; returns those that can go out now, in
   * time order.
   *
   * @param lastId the id of the last entry read, or null when none was
   */
  List<RecordedArrival> take(List<RecordedArrival> arrivals, String lastId) {
    held.addAll(arrivals);
    if (lastId == null) {
      return List.of();
    }
    long before = idMillis(lastId) - latest;
    List<RecordedArrival> out = new ArrayList<>();
    while (!held.isEmpty() && held.peek().at() < before) {
      out.add(held.poll());
    }
    return out;
  }

  /** Everything still held, in time order: the stream has been read to its end. */
  List<RecordedArrival> rest() {
    List<RecordedArrival> out = new ArrayList<>(held.size());
    while (!held.isEmpty()) {
      out.add(held.poll());
    }
    return out;
  }

  private static long idMillis(String id) {
    int dash = id.indexOf('-');
    return Long.parseLong(dash < 0 ? id : id.substring(0, dash));
  }
}
