package io.anteroom.guard;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Puts a {@link PassGuard} in front of a Spring Boot origin once {@code anteroom.guard.jwks-url} is
 * set ({@link GuardProperties}): a servlet filter in a servlet application, a {@code WebFilter} in
 * a reactive one, ordered before the application's own (and Spring Security's) filters. An
 * application's own {@link PassVerifier} or {@link PassGuard} bean replaces the one made here.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "anteroom.guard", name = "jwks-url")
@EnableConfigurationProperties(GuardProperties.class)
public class PassGuardAutoConfiguration {

  /** Before Spring Security's filters (-100), after only the framework's first ones. */
  static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 10;

  @Bean
  @ConditionalOnMissingBean
  PassVerifier anteroomPassVerifier(GuardProperties properties) {
    return properties.verifier();
  }

  @Bean
  @ConditionalOnMissingBean
  PassGuard anteroomPassGuard(PassVerifier verifier, GuardProperties properties) {
    return new PassGuard(verifier, properties.settings());
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = Type.SERVLET)
  @ConditionalOnClass(name = "jakarta.servlet.Filter")
  static class ServletGuard {

    @Bean
    FilterRegistrationBean<PassGuardFilter> anteroomPassGuardFilter(PassGuard guard) {
      FilterRegistrationBean<PassGuardFilter> registration =
          new FilterRegistrationBean<>(new PassGuardFilter(guard));
      registration.setName("anteroomPassGuard");
      registration.setOrder(ORDER);
      return registration;
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = Type.REACTIVE)
  @ConditionalOnClass(name = "org.springframework.web.server.WebFilter")
  static class ReactiveGuard {

    @Bean
    @Order(ORDER)
    PassGuardWebFilter anteroomPassGuardWebFilter(PassGuard guard) {
      return new PassGuardWebFilter(guard);
    }
  }
}
