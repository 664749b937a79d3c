package io.anteroom.gateway.activation;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.ActiveSet;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.tick.PeriodicTask;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;

/**
 * This gateway's copy of the set of active queues and of the rooms at their room-wide limits, so
 * deciding whether a request must queue costs no Redis call. Re-read periodically (a read that
 * finds nothing changed costs the same however many queues are on: {@link ActiveQueues#read}), and
 * at once when a change is announced on the pub/sub channel, reading every entry then (a read in
 * flight stands for the announcements that come meanwhile). While Redis cannot be read, the last
 * known set stays in force.
 */
public final class ActiveQueueMirror implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ActiveQueueMirror.class);

  private final ActiveQueues active;
  private final Mono<StatefulRedisPubSubConnection<String, String>> pubSub;
  private final String channel;
  private final PeriodicTask reads;
  private final ThrottledWarnings warnings;
  private volatile Set<QueueId> queues = Set.of();
  private volatile Set<String> fullRooms = Set.of();
  private volatile boolean known;
  private volatile boolean announced;
  private volatile Map<String, List<QueueId>> perRoom = Map.of();
  private final AtomicLong sent = new AtomicLong();
  private long applied;
  private volatile Disposable running;

  /**
   * @param pubSub a connection this mirror owns for the change channel, given once Redis has been
   *     reached (periodic reads cover the time before); closed on stop
   * @param refresh time between periodic reads
   * @param clock the time warnings are rate-limited by
   */
  public ActiveQueueMirror(
      ActiveQueues active,
      Mono<StatefulRedisPubSubConnection<String, String>> pubSub,
      String channel,
      Duration refresh,
      Clock clock,
      MeterRegistry meters) {
    this.active = active;
    this.pubSub = pubSub;
    this.channel = channel;
    this.reads = new PeriodicTask("active-queues", refresh, this::read, clock, meters);
    this.warnings = ThrottledWarnings.of(log, clock);
  }

  /** Whether the set has been read at least once; until then no queue is known to be on. */
  public boolean isKnown() {
    return known;
  }

  /** Whether {@code queue} was on at the last read. */
  public boolean isActive(QueueId queue) {
    return queues.contains(queue);
  }

  /** Whether {@code room} was at its room-wide limits at the last read: every newcomer waits. */
  public boolean isFull(String room) {
    return fullRooms.contains(room);
  }

  /**
   * Takes {@code room} as at its limits until the next read says otherwise: Redis refused a
   * newcomer a place in it before the worker marked it.
   */
  public synchronized void markFull(String room) {
    if (!fullRooms.contains(room)) {
      Set<String> rooms = new java.util.HashSet<>(fullRooms);
      rooms.add(room);
      fullRooms = Set.copyOf(rooms);
    }
  }

  /** How many queues of {@code room} were on at the last read. */
  public long activeIn(String room) {
    return activeQueues(room).size();
  }

  /** The queues of {@code room} that were on at the last read. */
  public List<QueueId> activeQueues(String room) {
    return perRoom.getOrDefault(room, List.of());
  }

  /**
   * Re-reads the set now; returns when done (or failed, keeping the old set). Of reads that
   * overlap, a read that was sent earlier never replaces the result of a later one (one connection:
   * Redis answers in order, so a later read sees a newer set).
   */
  public Mono<Void> refresh() {
    return read()
        .onErrorResume(
            error -> {
              warnings.warn(
                  "mirror",
                  "Active queues could not be read, keeping the last known set: {}",
                  error.toString());
              return Mono.empty();
            });
  }

  /** Reads the set once; fails when Redis does. */
  private Mono<Void> read() {
    return Mono.defer(
        () -> {
          long read = sent.incrementAndGet();
          boolean whole = announced;
          announced = false;
          return (whole ? active.readWhole() : active.read())
              .doOnNext(set -> apply(read, set))
              .then();
        });
  }

  private synchronized void apply(long read, ActiveSet set) {
    if (read < applied) {
      return;
    }
    applied = read;
    Map<QueueId, ?> map = set.queues();
    queues = Set.copyOf(map.keySet());
    fullRooms = set.fullRooms();
    perRoom = map.keySet().stream().collect(Collectors.groupingBy(QueueId::room));
    known = true;
  }

  @Override
  public synchronized void start() {
    if (running != null) {
      return;
    }
    reads.trigger();
    reads.start();
    Disposable stopReads = reads::stop;
    Disposable.Composite all = Disposables.composite(stopReads);
    all.add(pubSub.subscribe(connection -> listen(connection, all)));
    running = all;
  }

  private void listen(
      StatefulRedisPubSubConnection<String, String> connection, Disposable.Composite all) {
    if (!all.add(connection::close)) {
      connection.close();
      return;
    }
    all.add(
        connection
            .reactive()
            .observeChannels()
            .subscribe(
                message -> {
                  announced = true;
                  reads.trigger();
                }));
    connection
        .reactive()
        .subscribe(channel)
        .subscribe(
            null,
            error ->
                warnings.warn(
                    "subscribe", "Cannot subscribe to {}: {}", channel, error.toString()));
    reads.trigger();
  }

  @Override
  public synchronized void stop() {
    if (running != null) {
      running.dispose();
      running = null;
    }
  }

  @Override
  public boolean isRunning() {
    return running != null;
  }
}
