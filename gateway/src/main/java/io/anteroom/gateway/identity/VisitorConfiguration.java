package io.anteroom.gateway.identity;

import io.anteroom.queue.config.AnteroomProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Who visitors are: bound identities. */
@Configuration(proxyBeanMethods = false)
class VisitorConfiguration {

  /** A room whose {@code identity} setting does not parse fails at start-up, naming it. */
  @Bean
  Identities identities(AnteroomProperties anteroom, VisitorProperties visitors) {
    Map<String, IdentitySource> sources = new LinkedHashMap<>();
    anteroom
        .roomOptions()
        .forEach(
            (room, options) -> {
              if (options.identity() != null) {
                sources.put(room, IdentitySource.parse(room, options.identity().trim()));
              }
            });
    return new Identities(sources, visitors.identitySecret());
  }
}
