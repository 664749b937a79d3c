package io.anteroom.worker;

import io.anteroom.queue.config.QueueCoreConfiguration;
import io.anteroom.queue.config.SettingNames;
import io.anteroom.queue.config.UnknownSettingsCheck;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code anteroom.*} keys the worker reads; any other stops its start-up, naming the nearest
 * known key. The gateway's sections of the shared file are left to the gateway.
 */
@Configuration(proxyBeanMethods = false)
public class WorkerSettingNames {

  /** The worker's settings, and the sections only the gateway reads. */
  public static final SettingNames NAMES =
      SettingNames.of(
          Stream.concat(
                  QueueCoreConfiguration.PROPERTIES.stream(), Stream.of(WorkerProperties.class))
              .toList(),
          List.of("anteroom.gateway", "anteroom.tokens", "anteroom.visitors", "anteroom.admin"));

  @Bean
  static UnknownSettingsCheck unknownSettingsCheck() {
    return new UnknownSettingsCheck(NAMES);
  }
}
