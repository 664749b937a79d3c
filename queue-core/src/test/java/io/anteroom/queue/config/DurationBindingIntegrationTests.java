package io.anteroom.queue.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

class DurationBindingIntegrationTests {

  private static final String BARE_500 =
      "anteroom.timing.every: must be a whole number with a unit (ms, s, m, h, d), e.g. 30s;"
          + " was '500'";

  @ConfigurationProperties("anteroom.timing")
  record Timing(@DefaultValue("1s") Duration every) {}

  @ConfigurationProperties("elsewhere.timing")
  record OtherTiming(@DefaultValue("1s") Duration every) {}

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties({Timing.class, OtherTiming.class})
  @Import(DurationBinding.class)
  static class App {}

  @Test
  void bindWhenTheValueCarriesAUnitThenReadIt() {
    assertThat(started(Map.of("anteroom.timing.every", "250ms")).every()).hasMillis(250);
  }

  @Test
  void bindWhenTheValueIsAPlaceholderThenReadWhatItResolvesTo() {
    assertThat(started(Map.of("anteroom.timing.every", "${TIMING_OF_THE_TESTS:2m}")).every())
        .hasMinutes(2);
  }

  @Test
  void bindWhenNotSetThenTakeTheDefault() {
    assertThat(started(Map.of()).every()).hasSeconds(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"500", "PT0.5S", "500MS", "-1s", "1.5s", "soon"})
  void refuseWhenTheValueHasNoUnitOrAnotherFormThenNameTheProperty(String value) {
    assertThatThrownBy(() -> started(Map.of("anteroom.timing.every", value)))
        .rootCause()
        .hasMessage(
            "anteroom.timing.every: must be a whole number with a unit (ms, s, m, h, d), e.g. 30s;"
                + " was '"
                + value
                + "'");
  }

  @Test
  void refuseWhenYamlGivesABareNumberThenNameTheProperty() {
    // YAML reads `every: 500` as an Integer, which Spring alone would take as milliseconds.
    assertThatThrownBy(() -> started(Map.of("anteroom.timing.every", 500)))
        .rootCause()
        .hasMessage(BARE_500);
  }

  @Test
  void bindByHandLikeTheApps() {
    assertThat(byHand(Map.of("anteroom.timing.every", "5m")).every()).hasMinutes(5);
    assertThatThrownBy(() -> byHand(Map.of("anteroom.timing.every", "500")))
        .hasMessageContaining("anteroom.timing.every")
        .rootCause()
        .hasMessage(BARE_500);
  }

  @Test
  void leaveSettingsOutsideAnteroomToSpring() {
    try (AnnotationConfigApplicationContext context =
        context(Map.of("elsewhere.timing.every", "500"))) {
      assertThat(context.getBean(OtherTiming.class).every()).hasMillis(500);
    }
  }

  private static Timing started(Map<String, Object> values) {
    try (AnnotationConfigApplicationContext context = context(values)) {
      return context.getBean(Timing.class);
    }
  }

  private static AnnotationConfigApplicationContext context(Map<String, Object> values) {
    AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
    context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", values));
    context.register(App.class);
    context.refresh();
    return context;
  }

  private static Timing byHand(Map<String, Object> values) {
    return DurationBinding.binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("anteroom.timing", Timing.class);
  }
}
