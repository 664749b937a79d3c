package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyParserTests {

  @Test
  void valuesOverrideTheBaseAndTheRestIsKept() {
    RoomPolicy policy =
        PolicyParser.apply(
            "anteroom.rooms.shop",
            RoomPolicy.DEFAULTS,
            Map.of("admit-per-second", "2.5", "max-active", "40", "session-duration", "15m"));

    assertThat(policy.admitPerSecond()).isEqualTo(2.5);
    assertThat(policy.maxActive()).isEqualTo(40);
    assertThat(policy.sessionDuration()).isEqualTo(Duration.ofMinutes(15));
    assertThat(policy.abandonAfter()).isEqualTo(RoomPolicy.DEFAULTS.abandonAfter());
  }

  @Test
  void everyBadValueIsNamedAtOnce() {
    InvalidPolicyException error =
        catchThrowableOfType(
            InvalidPolicyException.class,
            () ->
                PolicyParser.apply(
                    "anteroom.rooms.shop",
                    RoomPolicy.DEFAULTS,
                    Map.of(
                        "admit-per-second", "-1",
                        "max-active", "0",
                        "session-duration", "30",
                        "abandon-after", "soon",
                        "admit-bacth", "10")));

    assertThat(error.problems())
        .anySatisfy(p -> assertThat(p).startsWith("anteroom.rooms.shop.session-duration:"))
        .anySatisfy(p -> assertThat(p).startsWith("anteroom.rooms.shop.abandon-after:"))
        .anySatisfy(
            p -> assertThat(p).isEqualTo("anteroom.rooms.shop.admit-bacth: unknown property"));
    assertThat(error.getMessage()).contains("anteroom.rooms.shop");
  }

  @Test
  void rangeProblemsAreNamedEachOnceTheValuesParse() {
    InvalidPolicyException error =
        catchThrowableOfType(
            InvalidPolicyException.class,
            () ->
                PolicyParser.apply(
                    "overrides",
                    RoomPolicy.DEFAULTS,
                    Map.of("admit-per-second", "-1", "max-active", "0", "admit-batch", "0")));

    assertThat(error.problems())
        .containsExactlyInAnyOrder(
            "overrides.admit-per-second: must be above 0 and at most 1000000",
            "overrides.max-active: must be at least 1",
            "overrides.admit-batch: must be between 1 and 5000");
  }

  @Test
  void notANumberIsRejected() {
    assertThat(problems(Map.of("admit-per-second", "NaN")))
        .containsExactly("x.admit-per-second: must be above 0 and at most 1000000");
    assertThat(problems(Map.of("admit-per-second", "Infinity")))
        .containsExactly("x.admit-per-second: must be above 0 and at most 1000000");
    assertThat(problems(Map.of("max-active", "1e3")))
        .containsExactly("x.max-active: must be a whole number; was '1e3'");
  }

  @Test
  void operationValuesParse() {
    RoomPolicy policy =
        PolicyParser.apply(
            "x",
            RoomPolicy.DEFAULTS,
            Map.of(
                "mode", "queue-all",
                "activate-above", "120.5",
                "activation-window", "5s",
                "cool-down", "2m",
                "closed-line", "clear",
                "failure-policy", "open"));

    assertThat(policy.mode()).isEqualTo(Mode.QUEUE_ALL);
    assertThat(policy.activatesOnTraffic()).isTrue();
    assertThat(policy.quietBelow()).isEqualTo(60.25);
    assertThat(policy.activationWindowSeconds()).isEqualTo(5);
    assertThat(policy.coolDown()).isEqualTo(Duration.ofMinutes(2));
    assertThat(policy.closedLine()).isEqualTo(ClosedLine.CLEAR);
    assertThat(policy.failurePolicy()).isEqualTo(FailurePolicy.OPEN);
    assertThat(RoomPolicy.DEFAULTS.activatesOnTraffic()).isFalse();
    assertThat(PolicyParser.apply("x", policy, Map.of("deactivate-below", "10")).quietBelow())
        .isEqualTo(10);
  }

  @Test
  void modeShadowParsesAndLetsEveryonePassLikePassthrough() {
    RoomPolicy shadow = PolicyParser.apply("x", RoomPolicy.DEFAULTS, Map.of("mode", "shadow"));

    assertThat(shadow.mode()).isEqualTo(Mode.SHADOW);
    assertThat(shadow.mode().holdsEveryone()).isFalse();
    assertThat(shadow.holdsEveryone(java.time.Instant.EPOCH)).isFalse();
    assertThat(problems(Map.of("mode", "Shadow")))
        .containsExactly(
            "x.mode: must be one of queue, queue-all, paused, passthrough, shadow, closed;"
                + " was 'Shadow'");
  }

  @Test
  void badOperationValuesAreNamedWithWhatIsAccepted() {
    assertThat(
            problems(
                Map.of(
                    "mode",
                    "open",
                    "activate-above",
                    "10",
                    "deactivate-below",
                    "11",
                    "activation-window",
                    "1500ms")))
        .containsExactlyInAnyOrder(
            "x.mode: must be one of queue, queue-all, paused, passthrough, shadow, closed; was 'open'",
            "x.deactivate-below: must be between 0 and activate-above (10.0)",
            "x.activation-window: must be whole seconds from 1s to 60s");
    assertThat(problems(Map.of("closed-line", "drop", "activation-window", "61s")))
        .containsExactlyInAnyOrder(
            "x.closed-line: must be one of keep, clear; was 'drop'",
            "x.activation-window: must be whole seconds from 1s to 60s");
  }

  private static List<String> problems(Map<String, String> values) {
    return catchThrowableOfType(
            InvalidPolicyException.class,
            () -> PolicyParser.apply("x", RoomPolicy.DEFAULTS, values))
        .problems();
  }

  @Test
  void burstScalesWithTheRate() {
    RoomPolicy policy =
        PolicyParser.apply(
            "x", RoomPolicy.DEFAULTS, Map.of("admit-per-second", "200", "admit-burst", "250ms"));

    assertThat(policy.burstTokens()).isEqualTo(50.0);
    assertThat(PolicyParser.apply("x", policy, Map.of("admit-per-second", "0.1")).burstTokens())
        .isEqualTo(1.0);
  }
}
