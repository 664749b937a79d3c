package io.anteroom.gateway.client;

import io.anteroom.gateway.GatewayProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The one {@link ClientAddress} of the gateway, from {@code anteroom.gateway.trusted-proxies}. */
@Configuration(proxyBeanMethods = false)
class ClientConfiguration {

  @Bean
  ClientAddress clientAddress(GatewayProperties gateway) {
    return new ClientAddress(gateway.trustedProxyRanges());
  }
}
