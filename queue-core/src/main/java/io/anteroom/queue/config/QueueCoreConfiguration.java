package io.anteroom.queue.config;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisPlaceLimits;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.history.RedisRoomHistory;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The queue model on one shared Redis connection, as both apps use it. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AnteroomProperties.class)
public class QueueCoreConfiguration {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  RedisConnector redisConnector(AnteroomProperties properties, MeterRegistry meters) {
    return RedisConnector.connect(properties.redis(), meters);
  }

  @Bean
  QueueKeys queueKeys(AnteroomProperties properties) {
    return new QueueKeys(properties.keyPrefix());
  }

  @Bean
  QueueStore queueStore(RedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisQueueStore(redis.commands(), keys, clock);
  }

  @Bean
  PlaceLimits placeLimits(RedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisPlaceLimits(redis.commands(), keys, clock);
  }

  @Bean
  TrafficStore trafficStore(RedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisTrafficStore(redis.commands(), keys, clock);
  }

  @Bean
  ActiveQueues activeQueues(RedisConnector redis, QueueKeys keys) {
    return new RedisActiveQueues(redis.commands(), keys);
  }

  @Bean
  RoomHistory roomHistory(RedisConnector redis, QueueKeys keys, Clock clock) {
    return new RedisRoomHistory(redis.commands(), keys, clock);
  }

  @Bean
  SettingsStore settingsStore(RedisConnector redis, QueueKeys keys) {
    return new RedisSettingsStore(redis.commands(), keys);
  }

  @Bean
  RoomPolicies roomPolicies(AnteroomProperties properties, SettingsStore settings) {
    return new RoomPolicies(properties.policies(), settings);
  }
}
