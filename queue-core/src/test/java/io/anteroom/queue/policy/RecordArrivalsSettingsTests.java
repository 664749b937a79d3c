package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecordArrivalsSettingsTests {

  static final RoomPolicy BASE = RoomPolicy.DEFAULTS;

  @Test
  void recordArrivalsIsOffByDefaultAndParsesAShare() {
    assertThat(BASE.recordArrivals()).isZero();
    assertThat(BASE.recordsArrivals()).isFalse();
    assertThat(PolicyProperty.byKey("record-arrivals")).hasValue(PolicyProperty.RECORD_ARRIVALS);

    RoomPolicy quarter = PolicyParser.apply("r", BASE, Map.of("record-arrivals", "0.25"));
    assertThat(quarter.recordArrivals()).isEqualTo(0.25);
    assertThat(quarter.recordsArrivals()).isTrue();
    assertThat(PolicyParser.apply("r", quarter, Map.of("record-arrivals", "1")).recordArrivals())
        .isEqualTo(1);
    assertThat(PolicyParser.apply("r", quarter, Map.of("record-arrivals", "0")).recordsArrivals())
        .isFalse();
    assertThat(PolicyParser.apply("r", quarter, Map.of("admit-per-second", "3")).recordArrivals())
        .as("kept when other values change")
        .isEqualTo(0.25);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-0.1", "1.01", "2", "NaN", "Infinity"})
  void recordArrivalsOutOfRangeIsRefusedNamingTheSetting(String value) {
    assertThatThrownBy(() -> PolicyParser.apply("r", BASE, Map.of("record-arrivals", value)))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly("r.record-arrivals: must be between 0 and 1"));
  }

  @Test
  void recordArrivalsAsTextIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> PolicyParser.apply("r", BASE, Map.of("record-arrivals", "half")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly("r.record-arrivals: must be a number; was 'half'"));
  }

  @Test
  void recordArrivalsOnAQueueIsRefusedAsRoomWide() {
    RoomPolicy room = PolicyParser.apply("r", BASE, Map.of("record-arrivals", "0.5"));

    assertThatThrownBy(
            () -> PolicyParser.applyToQueue("r/42", room, Map.of("record-arrivals", "1")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly("r/42.record-arrivals: is room-wide; set it on the room"));
    assertThat(PolicyParser.applyToQueue("r/42", room, Map.of()).recordArrivals())
        .as("a queue follows its room")
        .isEqualTo(0.5);
  }
}
