package io.anteroom.worker.admission;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import reactor.core.publisher.Flux;

/**
 * Lines on a test's Redis, on the test's keys and clock: the queue store and active queues a
 * gateway would use, a plain connection to read Redis back, and the worker that admits from them.
 * Closing it closes them all.
 */
final class LinesOnRedis implements AutoCloseable {

  final RedisConnector connector;
  final RedisCommands<String, String> sync;
  final QueueStore store;
  final RedisActiveQueues active;
  private final String uri;
  private final MutableClock clock;
  private final RedisClient client;
  private WorkerFixture worker;

  LinesOnRedis(String uri, QueueKeys keys, MutableClock clock) {
    this.uri = uri;
    this.clock = clock;
    this.connector =
        RedisConnector.connect(
            new RedisProperties(uri, Duration.ofSeconds(5), Duration.ofSeconds(1), 100_000));
    this.client = RedisClient.create(uri);
    this.sync = client.connect().sync();
    this.store = new RedisQueueStore(connector.commands(), keys, clock);
    this.active = new RedisActiveQueues(connector.commands(), keys);
  }

  /** Turns {@code queues} on by hand, one after the other. */
  void on(List<QueueId> queues) {
    Flux.fromIterable(queues).concatMap(q -> active.activate(q, Activation.MANUAL)).blockLast();
  }

  /**
   * Joins {@code each} visitors to each of {@code queues}, named after its item ({@code item0-v0},
   * {@code item0-v1}, ...), under {@code policy} paused, so that nobody is let in on joining.
   */
  void joinEach(List<QueueId> queues, int each, RoomPolicy policy) {
    RoomPolicy paused = PolicyParser.apply("test", policy, Map.of("mode", "paused"));
    Flux.fromIterable(queues)
        .concatMap(q -> Flux.range(0, each).map(v -> Map.entry(q, q.item() + "-v" + v)))
        .flatMap(j -> store.join(j.getKey(), j.getValue(), paused), 256)
        .blockLast();
  }

  /**
   * A worker for {@code room} on the test's clock, its loop driven by hand; it takes the place of
   * the one made before, which is closed.
   */
  WorkerFixture worker(String room, RoomPolicy policy, String tick) {
    if (worker != null) {
      worker.close();
    }
    worker = new WorkerFixture(uri, room, policy, tick, clock);
    return worker;
  }

  /** Has Redis's slow log record every command from now on, emptied first. */
  void recordEveryCommand() {
    sync.configSet("slowlog-max-len", "1000000");
    sync.configSet("slowlog-log-slower-than", "0");
    sync.slowlogReset();
  }

  @Override
  public void close() {
    if (worker != null) {
      worker.close();
    }
    connector.close();
    client.shutdown();
  }
}
