package io.anteroom.queue.history;

import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * The recent past of each room's line, shared by all workers (who write) and gateways (whose admin
 * page reads): one sample per {@link #INTERVAL}, kept for {@link #SPAN}.
 */
public interface RoomHistory {

  Duration INTERVAL = Duration.ofSeconds(5);
  Duration SPAN = Duration.ofMinutes(15);

  /**
   * Stores {@code sample} as the sample of the current interval, unless that interval has one; its
   * {@link HistorySample#at()} is ignored, the store's clock places it.
   *
   * @return true when it was stored
   */
  Mono<Boolean> record(String room, HistorySample sample);

  /** The samples of the last {@link #SPAN}, oldest first. */
  Mono<List<HistorySample>> recent(String room);
}
