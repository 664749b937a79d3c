package io.anteroom.gateway;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisIdleLines;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.policy.Durations;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.worker.WorkerProperties;
import io.anteroom.worker.admission.AdmissionLoop;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;

/** An admission worker beside a gateway under test, with its own connection as a process has. */
public final class InProcessWorker implements AutoCloseable {

  /** The default of {@code anteroom.idle-lines.per-room}, as a worker process has it. */
  private static final int IDLE_LINES = 10_000;

  private final RedisConnector connector;
  private final AdmissionLoop loop;

  /** Starts admitting at once, every {@code tick} (a duration with unit). */
  public InProcessWorker(String redisUri, QueueKeys keys, RoomPolicies policies, String tick) {
    this(
        new RedisProperties(redisUri, Duration.ofMillis(500), Duration.ofSeconds(1), 10_000),
        keys,
        policies,
        tick);
  }

  /** Starts admitting at once on the Redis of {@code redis}, e.g. a Cluster. */
  public InProcessWorker(
      RedisProperties redis, QueueKeys keys, RoomPolicies policies, String tick) {
    this.connector = RedisConnector.connect(redis);
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    RedisQueueStore store = new RedisQueueStore(connector.commands(), keys, Clock.systemUTC());
    this.loop =
        AdmissionLoop.create(
            new RedisActiveQueues(connector.commands(), keys),
            policies,
            store,
            new RedisTrafficStore(
                connector.commands(),
                keys,
                Clock.systemUTC(),
                new RedisIdleLines(connector.commands(), keys, Clock.systemUTC(), IDLE_LINES),
                false),
            new RedisRoomHistory(connector.commands(), keys, Clock.systemUTC()),
            new WorkerProperties(Durations.parse(tick), 8, 20),
            Clock.systemUTC(),
            meters);
    loop.start();
  }

  @Override
  public void close() {
    loop.stop();
    connector.close();
  }
}
