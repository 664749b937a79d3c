package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTests {

  @ParameterizedTest
  @CsvSource({"250ms,250", "30s,30000", "5m,300000", "2h,7200000", "1d,86400000", " 7s ,7000"})
  void parsesEveryUnit(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(strings = {"30", "", "s", "-5s", "1.5s", "10 s", "PT30S", "10y"})
  void rejectsTextWithoutAWholeNumberAndAUnit(String text) {
    assertThatThrownBy(() -> Durations.parse(text)).hasMessageContaining("with a unit");
  }

  @ParameterizedTest
  @ValueSource(strings = {"250ms", "30s", "5m", "2h", "1d", "1500ms", "90s"})
  void formatReadsBackExactly(String text) {
    Duration duration = Durations.parse(text);

    assertThat(Durations.parse(Durations.format(duration))).isEqualTo(duration);
    assertThat(Durations.format(duration)).isEqualTo(text);
  }
}
