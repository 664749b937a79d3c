package io.anteroom.queue.arrival;

/**
 * An arrival as the room's stream holds it.
 *
 * @param id the stream entry's id; ids grow with the time of the flush that wrote them
 * @param at when the visitor arrived (epoch ms), at most {@link RedisArrivals#LATEST} before the
 *     time of its id and never after it
 * @param item the queue's item id as in keys
 * @param sample the share of newcomers the room recorded when this one was
 */
public record RecordedArrival(String id, long at, String item, double sample) {

  /** The time part of {@link #id} (epoch ms). */
  public long idMillis() {
    int dash = id.indexOf('-');
    return Long.parseLong(dash < 0 ? id : id.substring(0, dash));
  }
}
