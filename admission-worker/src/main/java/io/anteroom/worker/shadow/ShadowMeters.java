package io.anteroom.worker.shadow;

import io.anteroom.queue.ExpireResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.shadow.WaitQuantiles;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The gauges of the virtual lines of queues in shadow mode, tagged {@code room} and {@code queue}:
 * {@code anteroom.shadow.waiting} (would be in line), {@code anteroom.shadow.active} (would be
 * inside), and {@code anteroom.shadow.wait} in seconds with {@code quantile} {@code 0.5} and {@code
 * 0.9} (over the line's last 1,000 waits). Item ids come from requests, so a room shows at most
 * {@code queuesPerRoom} queues, those with the longest virtual lines. The figures are read from
 * Redis, the same for every worker: aggregate with {@code max}. A queue no longer on, or no longer
 * in shadow mode, loses its series at the end of the tick.
 */
public final class ShadowMeters {

  private final Set<String> rooms;
  private final int queuesPerRoom;
  private final Map<QueueId, double[]> observed = new ConcurrentHashMap<>();
  private final MultiGauge waiting;
  private final MultiGauge running;
  private final MultiGauge wait;

  public ShadowMeters(Set<String> rooms, int queuesPerRoom, MeterRegistry meters) {
    this.rooms = Set.copyOf(rooms);
    this.queuesPerRoom = queuesPerRoom;
    this.waiting =
        MultiGauge.builder("anteroom.shadow.waiting")
            .description("People who would be in line, in a queue in shadow mode")
            .register(meters);
    this.running =
        MultiGauge.builder("anteroom.shadow.active")
            .description("Sessions that would be running, in a queue in shadow mode")
            .register(meters);
    this.wait =
        MultiGauge.builder("anteroom.shadow.wait")
            .description("Would-be wait in line of the last 1,000 admitted, in shadow mode")
            .baseUnit("seconds")
            .register(meters);
  }

  /** Records what this tick read of {@code queue}'s virtual line. */
  public void observe(QueueId queue, ExpireResult sizes, WaitQuantiles waits) {
    observed.put(
        queue,
        new double[] {
          sizes.waiting(),
          sizes.running(),
          waits.p50().toMillis() / 1000.0,
          waits.p90().toMillis() / 1000.0
        });
  }

  /** Updates the gauges at the end of a tick over {@code active}, the queues that are on. */
  public synchronized void publish(Collection<QueueId> active) {
    observed.keySet().retainAll(Set.copyOf(active));
    Map<String, List<Map.Entry<QueueId, double[]>>> byRoom = new HashMap<>();
    observed.entrySet().stream()
        .filter(e -> rooms.contains(e.getKey().room()))
        .forEach(e -> byRoom.computeIfAbsent(e.getKey().room(), r -> new ArrayList<>()).add(e));
    List<MultiGauge.Row<?>> waitingRows = new ArrayList<>();
    List<MultiGauge.Row<?>> activeRows = new ArrayList<>();
    List<MultiGauge.Row<?>> waitRows = new ArrayList<>();
    byRoom.forEach(
        (room, queues) ->
            queues.stream()
                .sorted(
                    Comparator.comparingDouble((Map.Entry<QueueId, double[]> e) -> -e.getValue()[0])
                        .thenComparing(e -> e.getKey().item()))
                .limit(queuesPerRoom)
                .forEach(
                    e -> {
                      Tags tags = Tags.of("room", room, "queue", e.getKey().item());
                      double[] row = e.getValue();
                      waitingRows.add(MultiGauge.Row.of(tags, row[0]));
                      activeRows.add(MultiGauge.Row.of(tags, row[1]));
                      waitRows.add(MultiGauge.Row.of(tags.and("quantile", "0.5"), row[2]));
                      waitRows.add(MultiGauge.Row.of(tags.and("quantile", "0.9"), row[3]));
                    }));
    waiting.register(waitingRows, true);
    running.register(activeRows, true);
    wait.register(waitRows, true);
  }
}
