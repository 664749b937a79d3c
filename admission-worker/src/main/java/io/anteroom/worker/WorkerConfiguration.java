package io.anteroom.worker;

import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.TrafficStore;
import io.anteroom.queue.config.QueueCoreConfiguration;
import io.anteroom.queue.history.RoomHistory;
import io.anteroom.queue.origin.RedisPilot;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.worker.admission.AdmissionLoop;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** Wires the queue model into the admission loop. */
@Configuration(proxyBeanMethods = false)
@Import(QueueCoreConfiguration.class)
class WorkerConfiguration {

  @Bean
  AdmissionLoop admissionLoop(
      ActiveQueues active,
      RoomPolicies policies,
      QueueStore store,
      ShadowLines shadow,
      RoomStore rooms,
      TrafficStore traffic,
      RoomHistory history,
      GatewayBeats beats,
      RedisPilot pilot,
      WorkerProperties worker,
      Clock clock,
      MeterRegistry meters) {
    return AdmissionLoop.create(
        active, policies, store, shadow, rooms, traffic, history, beats, pilot, worker, clock,
        meters);
  }
}
