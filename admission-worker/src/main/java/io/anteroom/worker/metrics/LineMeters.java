package io.anteroom.worker.metrics;

import io.anteroom.queue.ExpireResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.history.HistorySample;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The gauges of the lines: {@code anteroom.queue.waiting}, {@code .running}, {@code .finished},
 * {@code .admit.rate.configured} and {@code .admit.rate.measured}, tagged {@code room} and {@code
 * queue}. Item ids come from requests, so a room shows at most {@code queuesPerRoom} queues of its
 * own (the longest lines) and sums the rest as {@code queue="_other"}, a series every configured
 * room always has: the number of series is bounded by rooms × (queuesPerRoom + 1) however many
 * items are active, and {@code sum by (room)} is the room's total.
 *
 * <p>The figures are the line's, read from Redis, so all workers show the same values: aggregate
 * across workers with {@code max}, not {@code sum}. They are as fresh as the last tick. The
 * measured rate is the one Redis keeps while people wait (rate.lua), which visitors' waits are
 * estimated from.
 */
public final class LineMeters {

  /** The {@code queue} tag of the sum over a room's queues without a series of their own. */
  public static final String OTHER = "_other";

  private static final String[] NAMES = {
    "anteroom.queue.waiting",
    "anteroom.queue.running",
    "anteroom.queue.finished",
    "anteroom.queue.admit.rate.configured",
    "anteroom.queue.admit.rate.measured"
  };
  private static final String[] DESCRIPTIONS = {
    "People in line",
    "Admitted sessions",
    "Finished entries within the retention time",
    "Admissions per second the policy allows (0 when the mode admits nobody)",
    "Admissions per second measured in Redis while people wait (0 until known)"
  };

  private final Set<String> rooms;
  private final int queuesPerRoom;
  private final Map<QueueId, Observed> observed = new ConcurrentHashMap<>();
  private final List<MultiGauge> gauges = new ArrayList<>();
  private final Map<Tags, AtomicReference<double[]>> values = new HashMap<>();

  /** The last reading of one queue. */
  private static final class Observed {
    volatile ExpireResult sizes;
    volatile double configuredRate;
    volatile double measuredRate;
  }

  public LineMeters(Set<String> rooms, int queuesPerRoom, MeterRegistry meters) {
    this.rooms = Set.copyOf(rooms);
    this.queuesPerRoom = queuesPerRoom;
    for (int i = 0; i < NAMES.length; i++) {
      gauges.add(MultiGauge.builder(NAMES[i]).description(DESCRIPTIONS[i]).register(meters));
    }
    publish(Set.of());
  }

  /**
   * Records what this tick read of {@code queue}: the sizes from its expiry call, and the admission
   * rate measured in Redis.
   */
  public void observe(QueueId queue, RoomPolicy policy, ExpireResult sizes, double measuredRate) {
    Observed seen = observed.computeIfAbsent(queue, q -> new Observed());
    seen.sizes = sizes;
    seen.configuredRate = policy.mode().admits() ? policy.admitPerSecond() : 0;
    seen.measuredRate = measuredRate;
  }

  /**
   * Updates the gauges at the end of a tick over {@code active}; queues no longer active lose their
   * series.
   *
   * @return each configured room's totals, for its history
   */
  public synchronized Map<String, HistorySample> publish(Collection<QueueId> active) {
    observed.keySet().retainAll(Set.copyOf(active));
    Map<String, List<Map.Entry<QueueId, Observed>>> byRoom = new HashMap<>();
    observed.entrySet().stream()
        .filter(e -> e.getValue().sizes != null && rooms.contains(e.getKey().room()))
        .forEach(e -> byRoom.computeIfAbsent(e.getKey().room(), r -> new ArrayList<>()).add(e));

    Map<Tags, double[]> rows = new LinkedHashMap<>();
    Map<String, HistorySample> totals = new HashMap<>();
    for (String room : rooms) {
      List<Map.Entry<QueueId, Observed>> queues = byRoom.getOrDefault(room, new ArrayList<>());
      queues.sort(
          Comparator.comparingLong(
                  (Map.Entry<QueueId, Observed> e) -> -e.getValue().sizes.waiting())
              .thenComparing(e -> e.getKey().item()));
      double[] other = new double[NAMES.length];
      double[] total = new double[NAMES.length + 1];
      for (int i = 0; i < queues.size(); i++) {
        double[] row = row(queues.get(i).getValue());
        add(total, row);
        total[NAMES.length] += queues.get(i).getValue().sizes.admittedTotal();
        if (i < queuesPerRoom) {
          rows.put(Tags.of("room", room, "queue", queues.get(i).getKey().item()), row);
        } else {
          add(other, row);
        }
      }
      rows.put(Tags.of("room", room, "queue", OTHER), other);
      totals.put(
          room,
          new HistorySample(
              0, (long) total[0], (long) total[1], (long) total[2], (long) total[NAMES.length]));
    }
    register(rows);
    return totals;
  }

  private static double[] row(Observed seen) {
    ExpireResult sizes = seen.sizes;
    return new double[] {
      sizes.waiting(), sizes.running(), sizes.finished(), seen.configuredRate, seen.measuredRate
    };
  }

  private static void add(double[] sum, double[] row) {
    for (int i = 0; i < row.length; i++) {
      sum[i] += row[i];
    }
  }

  /** Keeps one holder per series, so existing series read new values and stay registered. */
  private void register(Map<Tags, double[]> rows) {
    values.keySet().retainAll(rows.keySet());
    rows.forEach(
        (tags, row) -> values.computeIfAbsent(tags, t -> new AtomicReference<>()).set(row));
    for (int i = 0; i < NAMES.length; i++) {
      int column = i;
      gauges
          .get(i)
          .register(
              values.entrySet().stream()
                  .map(
                      e ->
                          MultiGauge.Row.of(
                              e.getKey(), e.getValue(), holder -> holder.get()[column]))
                  .toList(),
              false);
    }
  }
}
