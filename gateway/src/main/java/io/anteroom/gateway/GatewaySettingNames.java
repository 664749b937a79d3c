package io.anteroom.gateway;

import io.anteroom.gateway.admin.AdminProperties;
import io.anteroom.gateway.identity.VisitorProperties;
import io.anteroom.gateway.token.PassKeyProperties;
import io.anteroom.gateway.token.TokenProperties;
import io.anteroom.queue.config.QueueCoreConfiguration;
import io.anteroom.queue.config.SettingNames;
import io.anteroom.queue.config.UnknownSettingsCheck;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code anteroom.*} keys the gateway reads; any other stops its start-up, naming the nearest
 * known key. The worker's section of the shared file is left to the worker.
 */
@Configuration(proxyBeanMethods = false)
public class GatewaySettingNames {

  /** The gateway's settings, and the sections only the worker reads. */
  public static final SettingNames NAMES =
      SettingNames.of(
          Stream.concat(
                  QueueCoreConfiguration.PROPERTIES.stream(),
                  Stream.of(
                      GatewayProperties.class,
                      TokenProperties.class,
                      PassKeyProperties.class,
                      VisitorProperties.class,
                      AdminProperties.class))
              .toList(),
          List.of("anteroom.worker"));

  @Bean
  static UnknownSettingsCheck unknownSettingsCheck() {
    return new UnknownSettingsCheck(NAMES);
  }
}
