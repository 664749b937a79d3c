package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.time.MutableClock;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoomPoliciesTests {

  final RoomPolicy yaml =
      PolicyParser.apply("yaml", RoomPolicy.DEFAULTS, Map.of("max-active", "50"));
  // Applying overrides reads no store.
  final RoomPolicies policies =
      new RoomPolicies(Map.of("shop", yaml), null, MutableClock.startingAt2026());

  @Test
  void queueOverridesApplyOnTopOfTheRoomOverrides() {
    RoomSettings settings =
        policies.apply(
            "shop",
            yaml,
            new Overrides(
                Map.of("admit-per-second", "5"),
                Map.of("42", Map.of("mode", "paused"), "7", Map.of("max-active", "3"))));

    assertThat(settings.policy().admitPerSecond()).isEqualTo(5);
    assertThat(settings.forItem("42").mode()).isEqualTo(Mode.PAUSED);
    assertThat(settings.forItem("42").admitPerSecond()).isEqualTo(5);
    assertThat(settings.forItem("7").maxActive()).isEqualTo(3);
    assertThat(settings.forItem("8")).isEqualTo(settings.policy());
  }

  @Test
  void oneBadOverrideIsSkippedAndTheOthersStillApply() {
    RoomSettings settings =
        policies.apply(
            "shop",
            yaml,
            new Overrides(
                Map.of("admit-per-second", "fast", "mode", "closed", "deactivate-below", "-1"),
                Map.of("42", Map.of("max-active", "0", "failure-policy", "open"))));

    assertThat(settings.policy().mode()).isEqualTo(Mode.CLOSED);
    assertThat(settings.policy().admitPerSecond()).isEqualTo(yaml.admitPerSecond());
    assertThat(settings.policy().quietBelow()).isEqualTo(yaml.quietBelow());
    assertThat(settings.forItem("42").failurePolicy()).isEqualTo(FailurePolicy.OPEN);
    assertThat(settings.forItem("42").maxActive()).isEqualTo(50);
  }

  @Test
  void overridesThatDoNotParseAreIgnoredWithoutTouchingTheOthers() {
    RoomSettings settings =
        policies.apply(
            "shop",
            yaml,
            new Overrides(
                Map.of("admit-per-second", "fast"),
                Map.of("42", Map.of("mode", "sleep"), "7", Map.of("mode", "closed"))));

    assertThat(settings.policy()).isEqualTo(yaml);
    assertThat(settings.forItem("42")).isEqualTo(yaml);
    assertThat(settings.forItem("7").mode()).isEqualTo(Mode.CLOSED);
  }
}
