package io.anteroom.gateway.activation;

import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Turns queues on automatically (for traffic, or for a mode that holds everyone), at most {@code
 * maxPerRoom} queues of one room at once: items come from requests, and a flood of made-up item ids
 * must not grow the set of active queues, which every gateway and worker reads each tick, without
 * limit. At the limit, a line with more people waiting than the room's automatic queue with the
 * fewest takes its place (counted in {@code anteroom.gateway.activations.evicted}); other refusals
 * are counted ({@code anteroom.gateway.activations.refused}) and logged.
 */
public final class AutoActivator {

  private static final Logger log = LoggerFactory.getLogger(AutoActivator.class);

  private final ActiveQueues active;

  /** Queues this gateway turned on automatically (by traffic, or for a mode that holds all). */
  private static final String ACTIVATED = "anteroom.gateway.activated";

  /** Automatic activations refused because the room has as many queues on as allowed. */
  private static final String REFUSED = "anteroom.gateway.activations.refused";

  /** Automatic queues turned off for a line with more people waiting, the room at its most. */
  private static final String EVICTED = "anteroom.gateway.activations.evicted";

  /** Least time between two looks for a queue to turn off, per room. */
  static final Duration EVICTION_EVERY = Duration.ofSeconds(1);

  /**
   * Least time between two looks for a line more than twice as long as the shortest the last look
   * found: a line growing fast is not kept waiting for the second, yet lines a visitor or two
   * longer than made-up ones cannot look up the room's queues more than ten times a second.
   */
  static final Duration LONGER_LINE_EVERY = Duration.ofMillis(100);

  private final ActiveQueueMirror mirror;
  private final RoomStore rooms;
  private final Clock clock;

  /** Per room, the last look-up of the queues on: when, and the fewest waiting it found. */
  private final Map<String, Look> tried = new ConcurrentHashMap<>();

  private record Look(long at, long fewest) {}

  /** Rooms whose queues are being looked up now: one look at a time per room. */
  private final Set<String> looking = ConcurrentHashMap.newKeySet();

  private final long maxPerRoom;
  private final MeterRegistry meters;
  private final ThrottledWarnings warnings;

  /** Registers its counters for each of {@code rooms} at zero. */
  public AutoActivator(
      ActiveQueues active,
      ActiveQueueMirror mirror,
      RoomStore lines,
      long maxPerRoom,
      Set<String> rooms,
      MeterRegistry meters,
      Clock clock) {
    this.active = active;
    this.mirror = mirror;
    this.rooms = lines;
    this.maxPerRoom = maxPerRoom;
    this.meters = meters;
    this.clock = clock;
    this.warnings = ThrottledWarnings.of(log, clock);
    for (String room : rooms) {
      meters.counter(ACTIVATED, "room", room);
      meters.counter(REFUSED, "room", room);
      meters.counter(EVICTED, "room", room);
    }
  }

  /**
   * Turns {@code queue} on as automatic and refreshes the mirror; true when this call turned it on,
   * false when it was on already or the room has as many queues on as allowed.
   */
  public Mono<Boolean> activate(QueueId queue) {
    return activate(queue, 0);
  }

  /**
   * {@link #activate(QueueId)} for a line with {@code waiting} people in it. In a room with as many
   * queues on as allowed, it takes the place of the automatic queue with the fewest people waiting
   * if that one has fewer (looked up one at a time, at most once a second per room, or ten times a
   * second for a line more than twice as long as the shortest the last look-up found): lines of
   * made-up item ids, a visitor or two each, cannot keep a line that many wait in off, nor make the
   * room's queues be looked up and turned off many times a second.
   */
  public Mono<Boolean> activate(QueueId queue, long waiting) {
    if (mirror.activeIn(queue.room()) < maxPerRoom) {
      return turnOn(queue);
    }
    return makeRoom(queue, waiting).flatMap(freed -> freed ? turnOn(queue) : refused(queue));
  }

  private Mono<Boolean> turnOn(QueueId queue) {
    return active
        .activate(queue, Activation.AUTO)
        .flatMap(changed -> changed ? turnedOn(queue) : Mono.just(false));
  }

  private Mono<Boolean> refused(QueueId queue) {
    meters.counter(REFUSED, "room", queue.room()).increment();
    warnings.warn(
        queue.room(),
        "room={} has {} queues on, the most allowed (anteroom.gateway.max-queues-per-room);"
            + " queue={} stays off",
        queue.room(),
        maxPerRoom,
        queue.item());
    return Mono.just(false);
  }

  /**
   * Turns off the room's automatic queue with the fewest people waiting, if fewer than {@code
   * waiting}; true when it did. A manual queue is never turned off, nor one turned on by hand
   * meanwhile (the removal names the cause it expects).
   */
  private Mono<Boolean> makeRoom(QueueId queue, long waiting) {
    String room = queue.room();
    long now = clock.millis();
    Look last = tried.get(room);
    // Lines of made-up ids, a visitor or two each, cost one look-up a second; a line more than
    // twice as long as the shortest the last look found is not kept waiting for the second.
    if (waiting < 2 || (last != null && now - last.at() < gap(waiting, last).toMillis())) {
      return Mono.just(false);
    }
    if (!looking.add(room)) {
      return Mono.just(false);
    }
    tried.put(room, new Look(now, waiting));
    return look(room, queue, waiting, now).doFinally(signal -> looking.remove(room));
  }

  private static Duration gap(long waiting, Look last) {
    return waiting - last.fewest() > last.fewest() ? LONGER_LINE_EVERY : EVICTION_EVERY;
  }

  private Mono<Boolean> look(String room, QueueId queue, long waiting, long now) {
    return active
        .list()
        .map(
            all ->
                all.entrySet().stream()
                    .filter(e -> e.getValue() == Activation.AUTO)
                    .map(Map.Entry::getKey)
                    .filter(q -> q.room().equals(room) && !q.equals(queue))
                    .toList())
        .flatMap(candidates -> rooms.waiting(room, candidates))
        .doOnNext(
            sizes ->
                tried.put(
                    room,
                    new Look(
                        now, sizes.values().stream().min(Long::compare).orElse(Long.MAX_VALUE))))
        .flatMap(
            sizes ->
                sizes.entrySet().stream()
                    .min(Map.Entry.comparingByValue())
                    .filter(fewest -> fewest.getValue() < waiting)
                    .map(fewest -> evict(fewest.getKey(), fewest.getValue(), queue, waiting))
                    .orElse(Mono.just(false)));
  }

  private Mono<Boolean> evict(QueueId victim, long had, QueueId queue, long waiting) {
    return active
        .deactivate(victim, Activation.AUTO)
        .doOnNext(
            off -> {
              if (off) {
                meters.counter(EVICTED, "room", victim.room()).increment();
                log.info(
                    "room={} queue={} ({} waiting) turned off for queue={} ({} waiting): the room"
                        + " has as many queues on as allowed",
                    victim.room(),
                    victim.item(),
                    had,
                    queue.item(),
                    waiting);
              }
            });
  }

  private Mono<Boolean> turnedOn(QueueId queue) {
    meters.counter(ACTIVATED, "room", queue.room()).increment();
    return mirror.refresh().thenReturn(true);
  }
}
