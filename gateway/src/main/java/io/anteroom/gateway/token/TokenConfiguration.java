package io.anteroom.gateway.token;

import io.anteroom.queue.config.DurationBinding;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** Binds {@code anteroom.tokens.*} and builds the one {@link TokenCodec} of the gateway. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TokenProperties.class)
@Import(DurationBinding.class)
class TokenConfiguration {

  @Bean
  TokenCodec tokenCodec(TokenProperties properties, ObjectProvider<Clock> clock) {
    return TokenCodec.from(properties, clock.getIfAvailable(Clock::systemUTC));
  }
}
