package io.anteroom.queue.origin;

import java.util.List;

/**
 * What a worker reads before the auto-pilot decides, in one call: its state, and the origin's
 * figures over the window, summed over gateways and seconds.
 *
 * @param state where the auto-pilot stands
 * @param figures the window's figures, {@link OriginFigures#none()} when no gateway reported
 * @param reports how many gateway-seconds reported
 * @param unreadable reports that could not be read (written by something else), skipped
 */
public record PilotReading(PilotState state, OriginFigures figures, int reports, int unreadable) {

  /** The reading of {@code state} and the stored {@code reports}, each decoded and summed. */
  static PilotReading of(PilotState state, List<String> reports) {
    OriginFigures sum = OriginFigures.none();
    int unreadable = 0;
    for (String report : reports) {
      try {
        sum = sum.plus(OriginFigures.decode(report));
      } catch (IllegalArgumentException e) {
        unreadable++;
      }
    }
    return new PilotReading(state, sum, reports.size() - unreadable, unreadable);
  }
}
