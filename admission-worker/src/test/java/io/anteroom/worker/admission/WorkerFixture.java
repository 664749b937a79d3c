package io.anteroom.worker.admission;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.config.RedisProperties;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.policy.Durations;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.worker.WorkerProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/** One admission worker as a process would run it: its own Redis connection and loop. */
final class WorkerFixture implements AutoCloseable {

  final RedisConnector redis;
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final AdmissionLoop loop;

  WorkerFixture(String uri, String room, RoomPolicy policy, String tick) {
    this(uri, room, policy, tick, Clock.systemUTC());
  }

  WorkerFixture(String uri, String room, RoomPolicy policy, String tick, Clock clock) {
    this(
        new RedisProperties(uri, Duration.ofMillis(500), Duration.ofSeconds(1), 10_000),
        room,
        policy,
        tick,
        clock);
  }

  WorkerFixture(RedisProperties redisProperties, String room, RoomPolicy policy, String tick) {
    this(redisProperties, room, policy, tick, Clock.systemUTC());
  }

  WorkerFixture(
      RedisProperties redisProperties, String room, RoomPolicy policy, String tick, Clock clock) {
    this.redis = RedisConnector.connect(redisProperties);
    QueueKeys keys = new QueueKeys("wr");
    RedisQueueStore store = new RedisQueueStore(redis.commands(), keys, clock);
    RoomPolicies policies =
        new RoomPolicies(
            Map.of(room, policy), new RedisSettingsStore(redis.commands(), keys), clock);
    this.loop =
        AdmissionLoop.create(
            new RedisActiveQueues(redis.commands(), keys),
            policies,
            store,
            new RedisRoomStore(redis.commands(), keys, clock),
            new RedisTrafficStore(redis.commands(), keys, clock),
            new RedisRoomHistory(redis.commands(), keys, clock),
            new WorkerProperties(Durations.parse(tick), 32, 20),
            clock,
            meters);
  }

  double errors() {
    return meters.find("anteroom.worker.errors").counters().stream()
            .mapToDouble(c -> c.count())
            .sum()
        + meters.counter("anteroom.worker.ticks.failed").count();
  }

  @Override
  public void close() {
    loop.stop();
    redis.close();
  }
}
