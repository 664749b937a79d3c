package io.anteroom.gateway.activation;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.log.ThrottledWarnings;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * This gateway's copy of the set of active queues, so deciding whether a request must queue costs
 * no Redis call. Re-read periodically, and at once when a change is announced on the pub/sub
 * channel. While Redis cannot be read, the last known set stays in force.
 */
public final class ActiveQueueMirror implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ActiveQueueMirror.class);

  private final ActiveQueues active;
  private final Mono<StatefulRedisPubSubConnection<String, String>> pubSub;
  private final String channel;
  private final Duration refresh;
  private final AtomicBoolean reading = new AtomicBoolean();
  private final ThrottledWarnings warnings =
      new ThrottledWarnings(log, Clock.systemUTC(), Duration.ofSeconds(10));
  private volatile Set<QueueId> queues = Set.of();
  private volatile boolean known;
  private volatile Map<String, Long> perRoom = Map.of();
  private final AtomicLong reads = new AtomicLong();
  private long applied;
  private volatile Disposable running;

  /**
   * @param pubSub a connection this mirror owns for the change channel, given once Redis has been
   *     reached (periodic reads cover the time before); closed on stop
   */
  public ActiveQueueMirror(
      ActiveQueues active,
      Mono<StatefulRedisPubSubConnection<String, String>> pubSub,
      String channel,
      Duration refresh) {
    this.active = active;
    this.pubSub = pubSub;
    this.channel = channel;
    this.refresh = refresh;
  }

  /** Whether the set has been read at least once; until then no queue is known to be on. */
  public boolean isKnown() {
    return known;
  }

  /** Whether {@code queue} was on at the last read. */
  public boolean isActive(QueueId queue) {
    return queues.contains(queue);
  }

  /** How many queues of {@code room} were on at the last read. */
  public long activeIn(String room) {
    return perRoom.getOrDefault(room, 0L);
  }

  /**
   * Re-reads the set now; returns when done (or failed, keeping the old set). Of reads that
   * overlap, a read that was sent earlier never replaces the result of a later one (one connection:
   * Redis answers in order, so a later read sees a newer set).
   */
  public Mono<Void> refresh() {
    return Mono.defer(
            () -> {
              long read = reads.incrementAndGet();
              return active.list().doOnNext(map -> apply(read, map)).then();
            })
        .then()
        .onErrorResume(
            error -> {
              warnings.warn(
                  "mirror",
                  "Active queues could not be read, keeping the last known set: {}",
                  error.toString());
              return Mono.empty();
            });
  }

  private synchronized void apply(long read, Map<QueueId, ?> map) {
    if (read < applied) {
      return;
    }
    applied = read;
    queues = Set.copyOf(map.keySet());
    perRoom =
        map.keySet().stream().collect(Collectors.groupingBy(QueueId::room, Collectors.counting()));
    known = true;
  }

  private void refreshUnlessReading() {
    if (reading.compareAndSet(false, true)) {
      refresh().doFinally(s -> reading.set(false)).subscribe();
    }
  }

  @Override
  public synchronized void start() {
    if (running != null) {
      return;
    }
    refreshUnlessReading();
    Disposable periodic = Flux.interval(refresh).subscribe(n -> refreshUnlessReading());
    Disposable.Composite all = Disposables.composite(periodic);
    all.add(pubSub.subscribe(connection -> listen(connection, all)));
    running = all;
  }

  private void listen(
      StatefulRedisPubSubConnection<String, String> connection, Disposable.Composite all) {
    if (!all.add(connection::close)) {
      connection.close();
      return;
    }
    all.add(connection.reactive().observeChannels().subscribe(message -> refreshUnlessReading()));
    connection
        .reactive()
        .subscribe(channel)
        .subscribe(
            null,
            error ->
                warnings.warn(
                    "subscribe", "Cannot subscribe to {}: {}", channel, error.toString()));
    refreshUnlessReading();
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
