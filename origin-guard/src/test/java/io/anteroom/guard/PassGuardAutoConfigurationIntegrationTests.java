package io.anteroom.guard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

class PassGuardAutoConfigurationIntegrationTests {

  private static final AutoConfigurations GUARD =
      AutoConfigurations.of(PassGuardAutoConfiguration.class);

  private static final String[] GUARDED = {
    "anteroom.guard.jwks-url=http://127.0.0.1:1/_anteroom/jwks.json",
    "anteroom.guard.room=shop",
    "anteroom.guard.paths=/products/{id},/products/{id}/**"
  };

  @Test
  void aServletApplicationGetsTheServletFilter() {
    new WebApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues(GUARDED)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FilterRegistrationBean.class);
              assertThat(context.getBean(FilterRegistrationBean.class).getFilter())
                  .isInstanceOf(PassGuardFilter.class);
              assertThat(context).doesNotHaveBean(PassGuardWebFilter.class);
            });
  }

  @Test
  void aReactiveApplicationGetsTheWebFilter() {
    new ReactiveWebApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues(GUARDED)
        .run(
            context -> {
              assertThat(context).hasSingleBean(PassGuardWebFilter.class);
              assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
            });
  }

  @Test
  void itemIdsAreReadAsTheRoomReadsThem() {
    new WebApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues(GUARDED)
        .withPropertyValues(
            "anteroom.guard.item-format=integer", "anteroom.guard.item-case=insensitive")
        .run(
            context -> {
              GuardSettings settings = context.getBean(GuardProperties.class).settings();
              assertThat(settings.itemFormat()).isEqualTo(GuardSettings.ItemFormat.INTEGER);
              assertThat(settings.itemCase()).isEqualTo(GuardSettings.ItemCase.INSENSITIVE);
            });
  }

  @Test
  void withoutAJwksUrlNothingIsGuarded() {
    new WebApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues("anteroom.guard.room=shop")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(PassGuard.class);
              assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
            });
  }

  @Test
  void aNonWebApplicationGetsTheVerifierAndNoFilter() {
    new ApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues(GUARDED)
        .run(
            context -> {
              assertThat(context).hasSingleBean(PassVerifier.class);
              assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
              assertThat(context).doesNotHaveBean(PassGuardWebFilter.class);
            });
  }

  @Test
  void redirectWithoutAGatewayUrlFailsAtStart() {
    new WebApplicationContextRunner()
        .withConfiguration(GUARD)
        .withPropertyValues(GUARDED)
        .withPropertyValues("anteroom.guard.on-refusal=redirect")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("anteroom.guard.gateway-url"));
  }
}
