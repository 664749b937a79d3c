package io.anteroom.worker.metrics;

import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes each room's totals into its {@link RoomHistory} once per {@link RoomHistory#INTERVAL}
 * (ticks in between send nothing); the first worker of an interval wins, the others' samples are
 * dropped by the script.
 */
public final class HistoryWriter {

  private static final Logger log = LoggerFactory.getLogger(HistoryWriter.class);

  private final RoomHistory history;
  private final Clock clock;
  private final Map<String, Long> written = new ConcurrentHashMap<>();
  private final ThrottledWarnings warnings;

  public HistoryWriter(RoomHistory history, Clock clock) {
    this.history = history;
    this.clock = clock;
    this.warnings = new ThrottledWarnings(log, clock, Duration.ofSeconds(60));
  }

  /** Writes the rooms whose current interval has no sample from this worker yet. */
  public Mono<Void> write(Map<String, HistorySample> totals) {
    long interval = RoomHistory.INTERVAL.toMillis();
    long slot = clock.millis() / interval;
    return Flux.fromIterable(totals.entrySet())
        .filter(room -> !Long.valueOf(slot).equals(written.get(room.getKey())))
        .flatMap(
            room ->
                history
                    .record(room.getKey(), room.getValue())
                    .doOnSuccess(kept -> written.put(room.getKey(), slot))
                    .onErrorResume(
                        error -> {
                          warnings.warn(
                              room.getKey(),
                              "room={} history sample not written: {}",
                              room.getKey(),
                              error.toString());
                          return Mono.empty();
                        }))
        .then();
  }
}
