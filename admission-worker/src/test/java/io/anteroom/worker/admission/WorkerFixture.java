package io.anteroom.worker.admission;

import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.IdleLines;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisIdleLines;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.Durations;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.shadow.RedisShadowLines;
import io.anteroom.worker.WorkerProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One admission worker as a process would run it: its own Redis connection and loop. Worker tests
 * build it for one room and drive the loop by hand; gateway tests start one beside the gateway with
 * {@link #running}.
 */
public final class WorkerFixture implements AutoCloseable {

  /** The default of {@code anteroom.idle-lines.per-room}, as a worker process has it. */
  private static final int IDLE_LINES = 10_000;

  private static final int QUEUE_CONCURRENCY = 32;
  private static final int METRIC_QUEUES_PER_ROOM = 20;

  final RedisConnector redis;
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final AdmissionLoop loop;

  WorkerFixture(String uri, String room, RoomPolicy policy, String tick) {
    this(uri, room, policy, tick, Clock.systemUTC());
  }

  WorkerFixture(String uri, String room, RoomPolicy policy, String tick, Clock clock) {
    this(properties(uri), room, policy, tick, clock);
  }

  WorkerFixture(RedisProperties redisProperties, String room, RoomPolicy policy, String tick) {
    this(redisProperties, room, policy, tick, Clock.systemUTC());
  }

  WorkerFixture(
      RedisProperties redisProperties, String room, RoomPolicy policy, String tick, Clock clock) {
    this(
        redisProperties,
        new QueueKeys("wr"),
        (redis, keys) ->
            new RoomPolicies(
                Map.of(room, policy), new RedisSettingsStore(redis.commands(), keys), clock),
        new WorkerProperties(Durations.parse(tick), QUEUE_CONCURRENCY, METRIC_QUEUES_PER_ROOM),
        clock,
        false);
  }

  private WorkerFixture(
      RedisProperties redisProperties,
      QueueKeys keys,
      BiFunction<RedisConnector, QueueKeys, RoomPolicies> policies,
      WorkerProperties settings,
      Clock clock,
      boolean boundedIdleLines) {
    this.redis = RedisConnector.connect(redisProperties);
    IdleLines idle =
        boundedIdleLines
            ? new RedisIdleLines(redis.commands(), keys, clock, IDLE_LINES)
            : IdleLines.UNBOUNDED;
    this.loop =
        AdmissionLoop.create(
            new RedisActiveQueues(redis.commands(), keys),
            policies.apply(redis, keys),
            new RedisQueueStore(redis.commands(), keys, clock),
            new RedisShadowLines(redis.commands(), keys, clock),
            new RedisRoomStore(redis.commands(), keys, clock),
            new RedisTrafficStore(redis.commands(), keys, clock, idle, false),
            new RedisRoomHistory(redis.commands(), keys, clock),
            new GatewayBeats(redis.commands(), keys),
            new RedisPilot(redis.commands(), keys, clock),
            settings,
            clock,
            meters);
  }

  /**
   * A worker beside a gateway under test, admitting at once every {@code tick} (a duration with
   * unit) with the gateway's keys and policies, its idle lines bounded as a process has them.
   */
  public static WorkerFixture running(
      String redisUri, QueueKeys keys, RoomPolicies policies, String tick) {
    return running(properties(redisUri), keys, policies, tick);
  }

  /**
   * A running worker, as {@link #running(String, QueueKeys, RoomPolicies, String)}, on any Redis.
   */
  public static WorkerFixture running(
      RedisProperties redis, QueueKeys keys, RoomPolicies policies, String tick) {
    WorkerFixture worker =
        new WorkerFixture(
            redis,
            keys,
            (connector, sameKeys) -> policies,
            new WorkerProperties(Durations.parse(tick), 8, METRIC_QUEUES_PER_ROOM),
            Clock.systemUTC(),
            true);
    worker.loop.start();
    return worker;
  }

  private static RedisProperties properties(String uri) {
    return new RedisProperties(uri, Duration.ofMillis(500), Duration.ofSeconds(1), 10_000);
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
