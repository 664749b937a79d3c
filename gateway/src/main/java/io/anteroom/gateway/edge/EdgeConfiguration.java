package io.anteroom.gateway.edge;

import io.anteroom.gateway.GatewayProperties;
import io.anteroom.gateway.client.ClientAddress;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What every request meets first, whatever its route. */
@Configuration(proxyBeanMethods = false)
class EdgeConfiguration {

  @Bean
  HeaderLimit headerLimit(GatewayProperties gateway, MeterRegistry meters) {
    return new HeaderLimit(gateway.maxRequestHeaders(), meters);
  }

  @Bean
  BodyBuffer bodyBuffer(GatewayProperties gateway, ClientAddress clients, MeterRegistry meters) {
    return new BodyBuffer(
        (int) gateway.maxRequestBody().toBytes(),
        gateway.requestBodyTimeout(),
        gateway.requestBodiesHeld().toBytes(),
        request -> clients.countedAs(request).orElse(""),
        meters);
  }
}
