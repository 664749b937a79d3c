package io.anteroom.gateway.arrival;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.arrival.Arrival;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Records a sample of each room's newcomers for a later replay ({@code record-arrivals}): on the
 * request path only a random draw and an append to a bounded buffer ({@link #record}), no Redis
 * call; about once a second ({@link #flush}, run periodically) the buffer goes to each room's
 * stream ({@link RedisArrivals}), one script call per room and thousand arrivals.
 *
 * <p>Counted in {@code anteroom.gateway.arrivals{room, outcome}}: {@code recorded} when written,
 * {@code dropped} when the buffer was full, the write came too late ({@link RedisArrivals#LATEST})
 * or failed. A failed write is never sent again, so no arrival is recorded twice; one that timed
 * out may still have been run by Redis, and is then recorded though counted as dropped. Visitors
 * never wait on any of it.
 */
public final class ArrivalRecorder {

  /** How often the arrivals are sent. */
  public static final Duration EVERY = Duration.ofSeconds(1);

  /** Most arrivals a gateway holds between two flushes. */
  public static final int CAPACITY = 10_000;

  private static final Logger log = LoggerFactory.getLogger(ArrivalRecorder.class);

  private record Counters(Counter recorded, Counter dropped) {}

  private final ArrivalBuffer buffer;
  private final RedisArrivals store;
  private final Clock clock;
  private final Map<String, Counters> counters;
  private final ThrottledWarnings warnings;

  public ArrivalRecorder(
      Set<String> rooms, RedisArrivals store, MeterRegistry meters, Clock clock) {
    this(rooms, store, meters, clock, CAPACITY);
  }

  /** A recorder holding at most {@code capacity} arrivals, for tests. */
  public ArrivalRecorder(
      Set<String> rooms, RedisArrivals store, MeterRegistry meters, Clock clock, int capacity) {
    this.buffer = new ArrivalBuffer(capacity);
    this.store = store;
    this.clock = clock;
    this.counters =
        rooms.stream()
            .collect(
                Collectors.toUnmodifiableMap(Function.identity(), room -> counters(meters, room)));
    this.warnings = ThrottledWarnings.of(log, clock);
  }

  private static Counters counters(MeterRegistry meters, String room) {
    return new Counters(
        meters.counter("anteroom.gateway.arrivals", "room", room, "outcome", "recorded"),
        meters.counter("anteroom.gateway.arrivals", "room", room, "outcome", "dropped"));
  }

  /**
   * A newcomer reached {@code queue}: recorded with the room's share of newcomers, now, in memory.
   * The caller tells newcomers (no pass and no ticket for the queue) from everyone else.
   */
  public void record(QueueId queue, RoomPolicy policy) {
    double share = policy.recordArrivals();
    if (share <= 0 || ThreadLocalRandom.current().nextDouble() >= share) {
      return;
    }
    Counters counted = counters.get(queue.room());
    if (counted == null) {
      return;
    }
    Arrival arrival = new Arrival(clock.millis(), queue.item());
    if (!buffer.add(new ArrivalBuffer.Entry(queue.room(), share, arrival))) {
      counted.dropped().increment();
    }
  }

  /** Sends the arrivals recorded since the last flush; completes when done, never with an error. */
  public Mono<Void> flush() {
    List<ArrivalBuffer.Entry> drained = buffer.drain();
    if (drained.isEmpty()) {
      return Mono.empty();
    }
    return Flux.fromIterable(calls(drained)).concatMap(this::send).then();
  }

  /** One call's worth of arrivals of one room, oldest first. */
  private record Call(String room, double sample, List<Arrival> arrivals) {}

  /** The drained arrivals by room and share, in time order, cut into calls. */
  private static List<Call> calls(List<ArrivalBuffer.Entry> drained) {
    Map<String, List<ArrivalBuffer.Entry>> byRoom = new LinkedHashMap<>();
    for (ArrivalBuffer.Entry entry : drained) {
      byRoom.computeIfAbsent(entry.room(), room -> new ArrayList<>()).add(entry);
    }
    List<Call> calls = new ArrayList<>();
    for (List<ArrivalBuffer.Entry> entries : byRoom.values()) {
      entries.sort(Comparator.comparingLong(e -> e.arrival().at()));
      int from = 0;
      for (int i = 1; i <= entries.size(); i++) {
        boolean cut =
            i == entries.size()
                || i - from == RedisArrivals.MOST_PER_CALL
                || entries.get(i).sample() != entries.get(from).sample();
        if (cut) {
          List<ArrivalBuffer.Entry> part = entries.subList(from, i);
          calls.add(
              new Call(
                  part.get(0).room(),
                  part.get(0).sample(),
                  part.stream().map(ArrivalBuffer.Entry::arrival).toList()));
          from = i;
        }
      }
    }
    return calls;
  }

  private Mono<Void> send(Call call) {
    Counters counted = counters.get(call.room());
    return store
        .record(call.room(), call.sample(), call.arrivals())
        .doOnNext(
            written -> {
              counted.recorded().increment(written.recorded());
              counted.dropped().increment(written.late());
            })
        .onErrorResume(
            error -> {
              counted.dropped().increment(call.arrivals().size());
              warnings.warn(
                  call.room(),
                  "room={} {} arrivals could not be recorded: {}",
                  call.room(),
                  call.arrivals().size(),
                  error.toString());
              return Mono.empty();
            })
        .then();
  }
}
