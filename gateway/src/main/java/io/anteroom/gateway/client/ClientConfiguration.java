package io.anteroom.gateway.client;

import io.anteroom.gateway.GatewayProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The one {@link ClientAddress} of the gateway, from {@code anteroom.gateway.trusted-proxies},
 * {@code forwarded-header} and {@code ipv6-prefix}; start-up stops while the server's own
 * forwarded-header handling is on ({@link ServerForwardingCheck}).
 */
@Configuration(proxyBeanMethods = false)
class ClientConfiguration {

  @Bean
  ClientAddress clientAddress(GatewayProperties gateway, Environment environment) {
    ServerForwardingCheck.requireOff(environment);
    return new ClientAddress(
        gateway.trustedProxyRanges(), gateway.forwardedHeaderKind(), gateway.ipv6Prefix());
  }
}
