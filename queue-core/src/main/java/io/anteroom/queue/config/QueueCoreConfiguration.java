package io.anteroom.queue.config;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.IdleLines;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisIdleLines;
import io.anteroom.queue.RedisPlaceLimits;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.Remembered;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.arrival.RedisArrivals;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.DeferredRedisConnector;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.shadow.RedisShadowLines;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.time.RedisTime;
import io.anteroom.queue.time.RedisTimeSync;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The queue model on one shared Redis connection, as both apps use it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({AnteroomProperties.class, IdleLinesProperties.class})
@Import(DurationBinding.class)
public class QueueCoreConfiguration {

  /** The settings records both apps read through this configuration. */
  public static final List<Class<?>> PROPERTIES =
      List.of(AnteroomProperties.class, IdleLinesProperties.class);

  /** This machine's clock corrected to Redis's, so all processes decide on one time. */
  @Bean
  RedisTime clock() {
    return new RedisTime(Clock.systemUTC());
  }

  @Bean
  RedisTimeSync redisTimeSync(RedisTime time, DeferredRedisConnector redis, MeterRegistry meters) {
    return new RedisTimeSync(time, redis.commands(), meters);
  }

  /**
   * The shared connection. The apps start without Redis too: it is then made in the background, and
   * until then every command fails at once, as during an outage.
   */
  @Bean(destroyMethod = "close")
  DeferredRedisConnector redisConnector(AnteroomProperties properties, MeterRegistry meters) {
    return DeferredRedisConnector.start(() -> RedisConnector.connect(properties.redis(), meters));
  }

  @Bean
  QueueKeys queueKeys(AnteroomProperties properties) {
    return new QueueKeys(properties.keyPrefix());
  }

  @Bean
  IdleLines idleLines(
      DeferredRedisConnector redis, QueueKeys keys, Clock clock, IdleLinesProperties idle) {
    return new RedisIdleLines(redis.commands(), keys, clock, idle.perRoom());
  }

  @Bean
  QueueStore queueStore(
      DeferredRedisConnector redis, QueueKeys keys, Clock clock, IdleLines idleLines) {
    return new RedisQueueStore(redis.commands(), keys, clock, idleLines);
  }

  @Bean
  ShadowLines shadowLines(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisShadowLines(redis.commands(), keys, clock);
  }

  @Bean
  RoomStore roomStore(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisRoomStore(redis.commands(), keys, clock);
  }

  @Bean
  PlaceLimits placeLimits(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisPlaceLimits(redis.commands(), keys, clock);
  }

  @Bean
  TrafficStore trafficStore(
      DeferredRedisConnector redis,
      AnteroomProperties anteroom,
      QueueKeys keys,
      Clock clock,
      IdleLines idleLines) {
    return new RedisTrafficStore(
        redis.commands(), keys, clock, idleLines, anteroom.redis().clustered());
  }

  @Bean
  GatewayBeats gatewayBeats(DeferredRedisConnector redis, QueueKeys keys) {
    return new GatewayBeats(redis.commands(), keys);
  }

  @Bean
  ActiveQueues activeQueues(
      DeferredRedisConnector redis,
      QueueKeys keys,
      Clock clock,
      RoomPolicies policies,
      SettingsStore settings) {
    List<Remembered> remembered = settings instanceof Remembered kept ? List.of(kept) : List.of();
    return new RedisActiveQueues(
        redis.commands(), keys, clock, RedisActiveQueues.holdsOf(policies), remembered);
  }

  @Bean
  RedisPilot redisPilot(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisPilot(redis.commands(), keys, clock);
  }

  @Bean
  RedisArrivals redisArrivals(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisArrivals(redis.commands(), keys, clock);
  }

  @Bean
  RoomHistory roomHistory(DeferredRedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisRoomHistory(redis.commands(), keys, clock);
  }

  @Bean
  SettingsStore settingsStore(DeferredRedisConnector redis, QueueKeys keys) {
    return new RedisSettingsStore(redis.commands(), keys);
  }

  @Bean
  RoomPolicies roomPolicies(AnteroomProperties properties, SettingsStore settings, Clock clock) {
    return new RoomPolicies(properties.policies(), settings, clock);
  }
}
