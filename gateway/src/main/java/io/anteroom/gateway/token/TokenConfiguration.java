package io.anteroom.gateway.token;

import io.anteroom.queue.config.DurationBinding;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Binds {@code anteroom.tokens.*}, builds the one {@link TokenCodec} of the gateway and serves the
 * pass keys' JWKS.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({TokenProperties.class, PassKeyProperties.class})
@Import(DurationBinding.class)
class TokenConfiguration {

  @Bean
  TokenKeys tokenKeys(TokenProperties properties, ObjectProvider<Clock> clock) {
    return TokenKeys.from(properties, clock.getIfAvailable(Clock::systemUTC));
  }

  @Bean
  PassKeys passKeys(
      PassKeyProperties passes,
      TokenProperties tokens,
      TokenKeys keys,
      ObjectProvider<Clock> clock) {
    return PassKeys.from(
        passes, tokens.generateDevKey(), keys.kids(), clock.getIfAvailable(Clock::systemUTC));
  }

  @Bean
  TokenCodec tokenCodec(
      TokenProperties properties, TokenKeys keys, PassKeys passKeys, ObjectProvider<Clock> clock) {
    return TokenCodec.from(properties, keys, passKeys, clock.getIfAvailable(Clock::systemUTC));
  }

  @Bean
  RouterFunction<ServerResponse> jwksRoute(PassKeys passKeys) {
    return new JwksEndpoint(passKeys).route();
  }
}
