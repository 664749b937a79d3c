package io.anteroom.queue.history;

/**
 * A room's line at one moment: the sums over its active queues.
 *
 * @param at start of the sample's interval (epoch ms)
 * @param waiting people in line
 * @param running admitted sessions
 * @param finished finished entries within the retention time
 * @param admitted visitors admitted over the lifetime of the active queues; the difference between
 *     two samples is the admissions in between, unless a queue was turned off (the sum then drops)
 */
public record HistorySample(long at, long waiting, long running, long finished, long admitted) {

  /** The stored form, {@code at:waiting:running:finished:admitted}. */
  String encode() {
    return at + ":" + waiting + ":" + running + ":" + finished + ":" + admitted;
  }

  /** The sample stored as {@code member}, or null when it is not one (written by hand). */
  static HistorySample decode(String member) {
    String[] parts = member.split(":", -1);
    if (parts.length != 5) {
      return null;
    }
    try {
      return new HistorySample(
          Long.parseLong(parts[0]),
          Long.parseLong(parts[1]),
          Long.parseLong(parts[2]),
          Long.parseLong(parts[3]),
          Long.parseLong(parts[4]));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
