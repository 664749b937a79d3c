package io.anteroom.worker;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.worker.admission.AdmissionLoop;
import io.anteroom.worker.admission.QueueWork;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the queue model on one shared Redis connection into the admission loop. */
@Configuration(proxyBeanMethods = false)
class WorkerConfiguration {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean(destroyMethod = "close")
  RedisConnector redisConnector(AnteroomProperties properties) {
    return RedisConnector.connect(properties.redis());
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
  ActiveQueues activeQueues(RedisConnector redis, QueueKeys keys) {
    return new RedisActiveQueues(redis.commands(), keys);
  }

  @Bean
  RoomPolicies roomPolicies(AnteroomProperties properties, RedisConnector redis, QueueKeys keys) {
    return new RoomPolicies(properties.policies(), new RedisSettingsStore(redis.commands(), keys));
  }

  @Bean
  AdmissionLoop admissionLoop(
      ActiveQueues active,
      RoomPolicies policies,
      QueueStore store,
      WorkerProperties worker,
      MeterRegistry meters) {
    QueueWork work = new QueueWork(store, meters);
    return new AdmissionLoop(active, policies, work, worker, meters);
  }
}
